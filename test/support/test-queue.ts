import { randomBytes } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createRedis } from '../../src/redis.js';
import { sleep } from './sleep.js';

export interface TestQueue {
  prefix: string;
  redisUrl: string;
  /** A worker-style connection (`maxRetriesPerRequest: null`) for workers under test. */
  connection: Redis;
  /** The queue itself, to add raw jobs as an upstream in any language would, and to inspect them. */
  queue: Queue;
  cleanup(): Promise<void>;
}

/** A queue under a key prefix of this test file's own, so files never see each other's jobs. */
export async function createTestQueue(name: string): Promise<TestQueue> {
  const prefix = `test-${randomBytes(5).toString('hex')}`;
  const redisUrl = inject('redisUrl');
  const connection = createRedis(redisUrl, 'worker');
  const queue = new Queue(name, { connection, prefix });
  await queue.waitUntilReady();
  return {
    prefix,
    redisUrl,
    connection,
    queue,
    cleanup: async () => {
      await queue.obliterate({ force: true });
      await queue.close();
      await connection.quit();
    },
  };
}

/** Waits until a job has completed or failed for good, and returns it with its final state. */
export async function settled(queue: Queue, jobId: string, timeoutMs = 15_000): Promise<{ job: Job; state: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (job) return { job, state };
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not settle in ${timeoutMs} ms (state: ${state})`);
    await sleep(20);
  }
}

/**
 * Waits until every job has completed or failed for good, and returns them in the order given.
 * Asks about one job at a time, in order, and goes on to the next once it has settled: jobs
 * settle in nearly the order they were queued, so a round costs a call or two, where a poller per
 * job would ask about every unsettled job every round and slow the worker it waits for.
 */
export async function allSettled(
  queue: Queue,
  jobIds: readonly string[],
  timeoutMs = 15_000,
): Promise<{ job: Job; state: string }[]> {
  const deadline = Date.now() + timeoutMs;
  const results: { job: Job; state: string }[] = [];
  for (const jobId of jobIds) {
    results.push(await settled(queue, jobId, Math.max(0, deadline - Date.now())));
  }
  return results;
}

/** Polls until `check` returns true. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await sleep(50);
  }
}
