import type { Queue } from 'bullmq';
import type { Queryable } from '../db/database.js';
import { expireEntries } from './expiry-repository.js';
import { scheduleMaintenance } from '../queues.js';

/** The maintenance job that removes expired entries; also the id of its job scheduler. */
export const EXPIRE_ENTRIES_JOB = 'expire-entries';
/** How often the sweep runs. Settings are read by each run, so a change applies at the next one. */
export const EXPIRY_EVERY_MS = 60_000;
/** Entries removed by one statement: its locks, audit rows and outbox rows stay small. */
export const EXPIRY_BATCH_SIZE = 1000;
/** Batches in one run, so a large backlog is worked off over several runs, never in one endless job. */
export const EXPIRY_MAX_BATCHES = 100;

export interface ExpiryRunOptions {
  batchSize?: number;
  maxBatches?: number;
  /** Ends the run after the batch in flight, so a shutdown need not wait for a whole run. */
  signal?: AbortSignal;
}

export interface ExpiryResult {
  removed: number;
}

/** Removes expired entries batch after batch until a batch comes back short or the run's bound is reached. */
export async function runExpiry(db: Queryable, options: ExpiryRunOptions = {}): Promise<ExpiryResult> {
  const batchSize = options.batchSize ?? EXPIRY_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? EXPIRY_MAX_BATCHES;
  let removed = 0;
  // Each batch commits on its own, so stopping between two loses nothing: the next run goes on.
  for (let batch = 0; batch < maxBatches && !options.signal?.aborted; batch += 1) {
    const count = await expireEntries(db, batchSize);
    removed += count;
    if (count < batchSize) break;
  }
  return { removed };
}

/** Registers (or updates) the sweep's job scheduler (see `scheduleMaintenance`). */
export async function scheduleExpiry(queue: Queue, everyMs: number = EXPIRY_EVERY_MS): Promise<void> {
  await scheduleMaintenance(queue, EXPIRE_ENTRIES_JOB, everyMs);
}
