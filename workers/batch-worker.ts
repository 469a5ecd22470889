import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { BatchResult } from '../src/batches/batch-schema.js';
import type { Database } from '../src/db/database.js';
import { recordImportJobOutcome } from '../src/imports/import-repository.js';
import type { Logger } from '../src/logger.js';
import { BATCH_OUTCOMES, type Metrics } from '../src/metrics.js';
import { BATCHES_QUEUE, KEEP_BATCH_RESULTS, KEEP_FAILED, MAX_STALLS } from '../src/queues.js';
import { processBatch } from './batch-processor.js';
import type { RedisClient } from '../src/redis.js';

export interface BatchWorkerOptions {
  db: Database;
  logger: Logger;
  /** A connection with `maxRetriesPerRequest: null`; BullMQ duplicates it for blocking reads. */
  connection: RedisClient;
  prefix: string;
  /** Batch jobs at once: each keeps one database connection busy. */
  concurrency?: number;
  /** Where entries of completed batches are counted by outcome. */
  metrics?: Metrics;
}

export interface BatchWorker {
  worker: Worker;
  /** Stops taking jobs and lets active ones finish. */
  close(): Promise<void>;
}

/** A job of an import that failed for good: recorded with the import, or found in the queue by its readers. */
function recordImportFailure(options: BatchWorkerOptions, job: Job, reason: string): void {
  const data = job.data as { import_id?: unknown; emails?: unknown };
  if (typeof data.import_id !== 'string') return;
  const entries = Array.isArray(data.emails) ? data.emails.length : 0;
  recordImportJobOutcome(options.db, data.import_id, job.id ?? '', entries, { failedReason: reason }).catch(
    (error: unknown) => options.logger.warn({ err: error, jobId: job.id }, 'could not record a failed import job'),
  );
}

export function startBatchWorker(options: BatchWorkerOptions): BatchWorker {
  const worker = new Worker<unknown, BatchResult>(BATCHES_QUEUE, (job) => processBatch(options.db, job), {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 2,
    removeOnComplete: KEEP_BATCH_RESULTS,
    removeOnFail: KEEP_FAILED,
    maxStalledCount: MAX_STALLS,
  });
  const { metrics } = options;
  if (metrics) {
    worker.on('completed', (job) => {
      const result = job.returnvalue as BatchResult | undefined;
      if (!result) return;
      for (const outcome of BATCH_OUTCOMES)
        if (result[outcome] > 0) metrics.batchEntries.inc({ outcome }, result[outcome]);
    });
  }
  worker.on('failed', (job, error) => {
    if (!job) return;
    options.logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'batch job failed');
    const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (final) recordImportFailure(options, job, error.message);
  });
  worker.on('error', (error) => options.logger.error({ err: error }, 'batch worker error'));
  return { worker, close: () => worker.close() };
}
