import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { RECLASSIFY_JOB } from '../src/bounces/reclassification-queue.js';
import { runReclassification } from '../src/bounces/reclassify.js';
import type { Config } from '../src/config.js';
import {
  maintainPartitions,
  PARTITIONS_EVERY_MS,
  PARTITIONS_JOB,
  schedulePartitions,
} from '../src/maintenance/partitions-job.js';
import { finishReclassification } from '../src/bounces/reclassification-repository.js';
import { deleteImportsBefore } from '../src/imports/import-repository.js';
import { IMPORT_RETENTION_MS } from '../src/imports/import-status.js';
import { deleteMailMessagesBefore, MAIL_MESSAGE_RETENTION_MS } from '../src/mail/messages/mail-message-repository.js';
import {
  EXPIRE_ENTRIES_JOB,
  EXPIRY_EVERY_MS,
  runExpiry,
  scheduleExpiry,
  type ExpiryResult,
  type ExpiryRunOptions,
} from '../src/policy/expire.js';
import { MAINTENANCE_QUEUE } from '../src/queues.js';
import type { WorkerDeps } from './worker-deps.js';

export type MaintenanceWorkerConfig = Pick<Config, 'QUEUE_PREFIX' | 'AUDIT_RETENTION_DAYS'>;

export interface MaintenanceWorkerTuning {
  /** How often the expiry sweep runs (default every minute). */
  expiryEveryMs?: number;
  /** The sweep's batch size and batches per run. */
  expiry?: Omit<ExpiryRunOptions, 'signal'>;
  /** How often the month partitions are created ahead and, past their retention, dropped (default hourly). */
  partitionsEveryMs?: number;
}

export interface MaintenanceWorker {
  worker: Worker<unknown, ExpiryResult | null>;
  /** Settles once the schedulers are registered (or registering one failed, which is logged). */
  scheduled: Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs the periodic maintenance jobs, and keeps their schedulers registered. The expiry sweep
 * also removes imports past their retention: both are small, periodic deletions. The partitions
 * job keeps the tables partitioned by month (src/maintenance/partitions-job.ts). It also runs the
 * reclassifications accounts ask for, one at a time per process.
 */
export function startMaintenanceWorker(
  config: MaintenanceWorkerConfig,
  deps: WorkerDeps,
  tuning: MaintenanceWorkerTuning = {},
): MaintenanceWorker {
  const { db, logger, connection } = deps;
  const prefix = config.QUEUE_PREFIX;
  const closing = new AbortController();
  const worker = new Worker<unknown, ExpiryResult | null>(
    MAINTENANCE_QUEUE,
    async (job) => {
      if (job.name === RECLASSIFY_JOB) {
        const id = (job.data as { reclassification_id?: unknown }).reclassification_id;
        if (typeof id !== 'string')
          throw new UnrecoverableError('a reclassification job names its reclassification_id');
        await runReclassification(db, id, closing.signal);
        return null;
      }
      if (job.name === PARTITIONS_JOB) {
        const result = await maintainPartitions(db, config.AUDIT_RETENTION_DAYS);
        if (result.created.length + result.dropped.length + result.held.length > 0) {
          logger.info(result, 'month partitions maintained');
        }
        return null;
      }
      if (job.name !== EXPIRE_ENTRIES_JOB) throw new UnrecoverableError(`unknown maintenance job ${job.name}`);
      const result = await runExpiry(db, { ...tuning.expiry, signal: closing.signal });
      if (result.removed > 0) logger.info({ removed: result.removed }, 'expired entries removed');
      const imports = await deleteImportsBefore(db, new Date(Date.now() - IMPORT_RETENTION_MS));
      if (imports > 0) logger.info({ imports }, 'imports past their retention removed');
      const messages = await deleteMailMessagesBefore(db, new Date(Date.now() - MAIL_MESSAGE_RETENTION_MS));
      if (messages > 0) logger.info({ messages }, 'mail messages past their retention removed');
      return result;
    },
    // A sweep at a time per process; runners in other processes skip each other's rows.
    { connection, prefix, concurrency: 1 },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    logger.warn({ jobId: job.id, name: job.name, reason: error.message }, 'maintenance job failed');
    // A reclassification whose last attempt failed says so to those who follow it.
    const id = (job.data as { reclassification_id?: unknown }).reclassification_id;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
    if (job.name === RECLASSIFY_JOB && typeof id === 'string' && final) {
      finishReclassification(db, id, error.message).catch((failure: unknown) =>
        logger.error({ err: failure, reclassification: id }, 'could not record a failed reclassification'),
      );
    }
  });
  worker.on('error', (error) => logger.error({ err: error }, 'maintenance worker error'));

  const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
  queue.on('error', (error) => logger.warn({ err: error }, 'maintenance queue error'));
  const scheduled = Promise.all([
    scheduleExpiry(queue, tuning.expiryEveryMs ?? EXPIRY_EVERY_MS).catch((error: unknown) =>
      logger.error({ err: error }, 'could not register the expiry scheduler'),
    ),
    schedulePartitions(queue, tuning.partitionsEveryMs ?? PARTITIONS_EVERY_MS).catch((error: unknown) =>
      logger.error({ err: error }, 'could not register the partitions scheduler'),
    ),
  ]).then(() => undefined);

  return {
    worker,
    scheduled,
    async close() {
      closing.abort();
      await worker.close();
      await scheduled;
      await queue.close();
    },
  };
}
