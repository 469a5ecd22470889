import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { BatchResult } from '../src/batches/batch-schema.js';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { BATCH_OUTCOMES, type Metrics } from '../src/metrics.js';
import { BATCHES_QUEUE, KEEP_BATCH_RESULTS, KEEP_FAILED } from '../src/queues.js';
import { processBatch } from './batch-processor.js';

export interface BatchWorkerOptions {
  db: Database;
  logger: Logger;
  /** A connection with `maxRetriesPerRequest: null`; BullMQ duplicates it for blocking reads. */
  connection: Redis;
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

export function startBatchWorker(options: BatchWorkerOptions): BatchWorker {
  const worker = new Worker<unknown, BatchResult>(BATCHES_QUEUE, (job) => processBatch(options.db, job), {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 2,
    removeOnComplete: KEEP_BATCH_RESULTS,
    removeOnFail: KEEP_FAILED,
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
    if (job)
      options.logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'batch job failed');
  });
  worker.on('error', (error) => options.logger.error({ err: error }, 'batch worker error'));
  return { worker, close: () => worker.close() };
}
