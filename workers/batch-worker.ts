import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { BATCH_COUNTS } from '../src/batches/batch-counts.js';
import type { BatchResult } from '../src/batches/batch-schema.js';
import { WORKER_TUNING, type Config } from '../src/config.js';
import { recordImportJobOutcome } from '../src/imports/import-repository.js';
import { BATCHES_QUEUE, KEEP_BATCH_RESULTS, KEEP_FAILED, MAX_STALLS } from '../src/queues.js';
import { processBatch } from './batch-processor.js';
import type { WorkerDeps } from './worker-deps.js';
import { queueTelemetry } from '../src/tracing/queue-telemetry.js';

export type BatchWorkerConfig = Pick<Config, 'QUEUE_PREFIX'>;

export interface BatchWorkerTuning {
  /** Batch jobs at once: each keeps one database connection busy. */
  concurrency: number;
}

export interface BatchWorker {
  worker: Worker;
  /** Stops taking jobs and lets active ones finish. */
  close(): Promise<void>;
}

/** A job of an import that failed for good: recorded with the import, or found in the queue by its readers. */
function recordImportFailure(deps: WorkerDeps, job: Job, reason: string): void {
  const data = job.data as { import_id?: unknown; emails?: unknown };
  if (typeof data.import_id !== 'string') return;
  const entries = Array.isArray(data.emails) ? data.emails.length : 0;
  recordImportJobOutcome(deps.db, data.import_id, job.id ?? '', entries, { failedReason: reason }).catch(
    (error: unknown) => deps.logger.warn({ err: error, jobId: job.id }, 'could not record a failed import job'),
  );
}

export function startBatchWorker(
  config: BatchWorkerConfig,
  deps: WorkerDeps,
  tuning: Partial<BatchWorkerTuning> = {},
): BatchWorker {
  const worker = new Worker<unknown, BatchResult>(BATCHES_QUEUE, (job) => processBatch(deps.db, job), {
    connection: deps.connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: tuning.concurrency ?? WORKER_TUNING.batches.concurrency,
    removeOnComplete: KEEP_BATCH_RESULTS,
    removeOnFail: KEEP_FAILED,
    maxStalledCount: MAX_STALLS,
    ...queueTelemetry(),
  });
  const { metrics } = deps;
  if (metrics) {
    worker.on('completed', (job) => {
      const result = job.returnvalue as BatchResult | undefined;
      if (!result) return;
      for (const outcome of BATCH_COUNTS)
        if (result[outcome] > 0) metrics.batchEntries.inc({ outcome }, result[outcome]);
    });
  }
  worker.on('failed', (job, error) => {
    if (!job) return;
    deps.logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'batch job failed');
    const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (final) recordImportFailure(deps, job, error.message);
  });
  worker.on('error', (error) => deps.logger.error({ err: error }, 'batch worker error'));
  return { worker, close: () => worker.close() };
}
