import type { DefaultJobOptions, Queue } from 'bullmq';

export const EVENTS_QUEUE = 'suppression-events';

const DAY_SECONDS = 24 * 60 * 60;

/** Completed jobs are trimmed (the database keeps the record); failed ones stay a week for inspection and retry. */
export const KEEP_COMPLETED = { age: 60 * 60, count: 10_000 };
export const KEEP_FAILED = { age: 7 * DAY_SECONDS };

/**
 * Retries span about nine hours (1 s, 2 s, 4 s ... doubling over 15 attempts), so a database
 * outage of that length loses nothing; after it the job waits in the failed set.
 */
export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 15,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: KEEP_COMPLETED,
  removeOnFail: KEEP_FAILED,
};

/**
 * How often a job may be found abandoned by a worker that ended mid-job (a crash, SIGKILL, a lost
 * connection) and be run again before BullMQ fails it. Running an event or batch job again is
 * safe (an event is applied once by its key; adding an address twice keeps one entry), so only a
 * job that looks like it kills its workers is failed: BullMQ's default, 1, fails a job whose worker
 * was killed twice while holding it, and its event then waits in the failed set for a retry by hand.
 */
export const MAX_STALLS = 20;

export const BATCHES_QUEUE = 'suppression-batches';

/** Raw mail messages (bounces, complaints, automatic replies) waiting to be read by the mail worker. */
export const MAIL_QUEUE = 'mail-messages';
/** Batch results are kept a day, so an import that waits (or looks later) can read every job's counts. */
export const KEEP_BATCH_RESULTS = { age: DAY_SECONDS };
/** Addresses or ids in one batch job. */
export const MAX_BATCH_JOB_ENTRIES = 10_000;

/** Periodic housekeeping jobs (the expiry sweep, the month partitions), run by the maintenance worker one at a time. */
export const MAINTENANCE_QUEUE = 'suppression-maintenance';

/**
 * Registers (or updates) a periodic maintenance job's scheduler, named as its job. Idempotent, so
 * every worker process upserts it at start; one scheduler per queue means one run per interval
 * however many processes do. One attempt: the next run, an interval later, is the retry.
 */
export async function scheduleMaintenance(queue: Queue, name: string, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    name,
    { every: everyMs },
    { name, data: {}, opts: { attempts: 1, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED } },
  );
}
