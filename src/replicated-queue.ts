import { Queue, type JobsOptions, type QueueOptions } from 'bullmq';
import type { RedisClient } from './redis.js';

/** How long a publish waits for replicas to hold its jobs before it fails. */
export const REPLICA_WAIT_MS = 2000;

/** Redis took the jobs, but fewer replicas than asked for hold them: publish them again. */
export class ReplicasBehindError extends Error {
  constructor(held: number, wanted: number) {
    super(
      `Redis took the jobs, but ${held} of ${wanted} replicas held them within ${REPLICA_WAIT_MS} ms; publish them again`,
    );
    this.name = 'ReplicasBehindError';
  }
}

/** The replicas a `ROLE` answer names: a master's third field is its connected replicas. */
function connectedReplicas(role: unknown): number {
  if (!Array.isArray(role) || role[0] !== 'master') return 0;
  return Array.isArray(role[2]) ? role[2].length : 0;
}

/**
 * Resolves once `wanted` replicas of the master that holds `key` (every connected replica, when it
 * has fewer) have every write this connection has made to it; rejects when they do not within
 * `REPLICA_WAIT_MS`. A cluster client sends a pipeline to the master of its key's slot, over the
 * connection the jobs went on, and `WAIT` covers that connection's writes.
 */
export async function replicated(client: RedisClient, key: string, wanted: number): Promise<void> {
  const [, [roleError, role] = []] = (await client.pipeline().exists(key).role().exec()) ?? [];
  if (roleError) throw roleError;
  const expected = Math.min(wanted, connectedReplicas(role));
  // A master with no replica has none to lose the jobs to, nor one to hand them over to.
  if (expected === 0) return;
  const [, [waitError, held] = []] =
    (await client.pipeline().exists(key).call('WAIT', expected, REPLICA_WAIT_MS).exec()) ?? [];
  if (waitError) throw waitError;
  if (typeof held !== 'number' || held < expected) throw new ReplicasBehindError(Number(held ?? 0), expected);
}

type BulkJobs = Parameters<Queue['addBulk']>[0];

/**
 * A queue whose `add` and `addBulk` resolve only once replicas hold the jobs: Redis replicates
 * asynchronously, and a master that dies just after taking a job would otherwise lose it with the
 * producer already told it was taken. Adding a job again is safe (one job per id).
 */
export class ReplicatedQueue extends Queue {
  constructor(
    name: string,
    options: QueueOptions & { connection: RedisClient },
    private readonly replicas: number,
  ) {
    super(name, options);
  }

  /** BullMQ sends a queue's commands over the client it is given, not a copy of it. */
  private replicated(): Promise<void> {
    return replicated(this.opts.connection as RedisClient, this.toKey('meta'), this.replicas);
  }

  override async add(name: string, data: unknown, options?: JobsOptions) {
    const job = await super.add(name, data, options);
    await this.replicated();
    return job;
  }

  override async addBulk(jobs: BulkJobs) {
    const added = await super.addBulk(jobs);
    await this.replicated();
    return added;
  }
}
