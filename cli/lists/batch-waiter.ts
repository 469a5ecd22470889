import { Job, Queue, QueueEvents } from 'bullmq';
import { addBatchCounts, noBatchCounts, type BatchCounts } from '../../src/batches/batch-counts.js';
import type { BatchResult } from '../../src/batches/batch-schema.js';
import { BATCHES_QUEUE } from '../../src/queues.js';
import { createRedis, type RedisClient, type RedisEndpoint } from '../../src/redis.js';
import type { QueuedJob } from '../../src/lists/queue-list.js';

export interface FailedJob {
  id: string;
  reason: string;
}

/**
 * The counts of the finished jobs, added up. `invalid` counts entries the workers refused (the
 * command checks them first, so it stays 0).
 */
export type BatchTotals = BatchCounts & {
  /** Jobs finished, failed ones included. */
  jobs: number;
  failed: FailedJob[];
  /** The first entries kept because a complaint put them there (at most 100). */
  protectedEntries: { id: string; email: string }[];
};

const MAX_PROTECTED_SHOWN = 100;

/** The entries a job's result names as protected, as read back from the queue. */
function protectedEntriesOf(result: unknown): { id: string; email: string }[] {
  const entries =
    typeof result === 'object' && result !== null ? (result as Partial<BatchResult>).protected_entries : [];
  return Array.isArray(entries)
    ? entries.filter((entry) => typeof entry?.id === 'string' && typeof entry.email === 'string')
    : [];
}

export interface BatchWaiterOptions {
  /** For the waiter's own connection, which blocks while it listens. */
  redis: RedisEndpoint;
  /** A connection for looking jobs up; left open on close. */
  connection: RedisClient;
  prefix: string;
  /** How often jobs not heard of yet are looked up, in case their end was missed. Default 2 s. */
  sweepIntervalMs?: number;
  /** Called when a followed job reports progress or finishes. */
  onChange?: () => void;
}

export interface BatchWaiter {
  /** Follows a job just queued, until it completes or fails for good. */
  follow(job: QueuedJob): void;
  /** Entries the workers are through with, in finished jobs and running ones. */
  readonly processed: number;
  /** Followed jobs that have finished. */
  readonly finished: number;
  /** Resolves with the totals once every followed job has finished; call it when all are followed. */
  done(): Promise<BatchTotals>;
  close(): Promise<void>;
}

interface Following {
  entries: number;
  processed: number;
}

type Outcome = { result: unknown } | { reason: string };

function processedOf(progress: unknown): number | null {
  if (typeof progress !== 'object' || progress === null) return null;
  const processed = (progress as Record<string, unknown>)['processed'];
  return typeof processed === 'number' && Number.isFinite(processed) ? processed : null;
}

const SWEEP_BATCH = 20;

/**
 * Waits for batch jobs and adds up what they return. Progress and ends are heard on the queue's
 * event stream, read from just before the first job is queued so none is missed; the oldest jobs
 * still open are also looked up every few seconds, in case an event was (a trimmed stream).
 */
export async function openBatchWaiter(options: BatchWaiterOptions): Promise<BatchWaiter> {
  const queue = new Queue(BATCHES_QUEUE, { connection: options.connection, prefix: options.prefix });
  queue.on('error', () => undefined);
  const [newest] = await options.connection.xrevrange(queue.keys['events'] ?? '', '+', '-', 'COUNT', 1);
  const listening = createRedis(options.redis, 'worker');
  listening.on('error', () => undefined);
  const events = new QueueEvents(BATCHES_QUEUE, {
    connection: listening,
    prefix: options.prefix,
    lastEventId: newest?.[0] ?? '0-0',
  });
  events.on('error', () => undefined);

  const following = new Map<string, Following>();
  const totals: BatchTotals = { jobs: 0, ...noBatchCounts(), failed: [], protectedEntries: [] };
  let processed = 0;
  let allFinished: (() => void) | undefined;

  const settle = (id: string, outcome: Outcome): void => {
    const job = following.get(id);
    if (!job) return;
    following.delete(id);
    processed += job.entries - job.processed;
    totals.jobs += 1;
    if ('reason' in outcome) totals.failed.push({ id, reason: outcome.reason });
    else {
      addBatchCounts(totals, outcome.result);
      const room = MAX_PROTECTED_SHOWN - totals.protectedEntries.length;
      if (room > 0) totals.protectedEntries.push(...protectedEntriesOf(outcome.result).slice(0, room));
    }
    options.onChange?.();
    if (following.size === 0) allFinished?.();
  };

  events.on('progress', ({ jobId, data }) => {
    const job = following.get(jobId);
    const now = processedOf(data);
    if (!job || now === null || now <= job.processed) return;
    processed += Math.min(now, job.entries) - job.processed;
    job.processed = Math.min(now, job.entries);
    options.onChange?.();
  });
  events.on('completed', ({ jobId, returnvalue }) => settle(jobId, { result: returnvalue }));
  events.on('failed', ({ jobId, failedReason }) => settle(jobId, { reason: failedReason }));

  const lookUp = async (id: string): Promise<void> => {
    const state = await queue.getJobState(id);
    if (state === 'unknown') return settle(id, { reason: 'the job is no longer in the queue (removed?)' });
    if (state !== 'completed' && state !== 'failed') return;
    const job = await Job.fromId(queue, id);
    if (!job) return settle(id, { reason: 'the job is no longer in the queue (removed?)' });
    settle(id, state === 'completed' ? { result: job.returnvalue } : { reason: job.failedReason });
  };
  let sweeping = false;
  const sweep = async (): Promise<void> => {
    if (sweeping) return;
    sweeping = true;
    try {
      for (const id of [...following.keys()].slice(0, SWEEP_BATCH)) await lookUp(id);
    } catch {
      // Redis away for a moment: the next sweep tries again.
    } finally {
      sweeping = false;
    }
  };
  const sweeper = setInterval(() => void sweep(), options.sweepIntervalMs ?? 2000);

  await events.waitUntilReady();

  return {
    follow(job) {
      following.set(job.id, { entries: job.entries, processed: 0 });
    },
    get processed() {
      return processed;
    },
    get finished() {
      return totals.jobs;
    },
    done() {
      if (following.size === 0) return Promise.resolve(totals);
      return new Promise((resolve) => {
        allFinished = () => resolve(totals);
      });
    },
    async close() {
      clearInterval(sweeper);
      await events.close();
      await queue.close();
      listening.disconnect();
    },
  };
}
