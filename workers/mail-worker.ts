import { UnrecoverableError, Worker } from 'bullmq';
import type { Config } from '../src/config.js';
import { createEventProducer } from '../src/events/event-producer.js';
import { mailJobSchema } from '../src/mail/messages/mail-job.js';
import { batchedMailMessageStore, batchedPublisher } from '../src/mail/messages/mail-reader-batches.js';
import { readMailMessage, type MailReading } from '../src/mail/messages/read-mail-message.js';
import { KEEP_COMPLETED, KEEP_FAILED, MAIL_QUEUE, MAX_STALLS } from '../src/queues.js';
import { queueTelemetry } from '../src/tracing/queue-telemetry.js';
import { lockSettings, type WorkerDeps } from './worker-deps.js';
import { producerSettings } from '../src/producer-queue.js';

export type MailWorkerConfig = Pick<
  Config,
  | 'QUEUE_PREFIX'
  | 'REDIS_WAIT_REPLICAS'
  | 'BOUNCE_DOMAINS'
  | 'BOUNCE_LOCAL_PART'
  | 'MAIL_UNSIGNED_DOMAINS'
  | 'MAIL_MAX_MESSAGE_BYTES'
>;

export interface MailWorkerTuning {
  /** How long a job stays claimed without its worker renewing the claim (default BullMQ's 30 s). */
  lockDurationMs?: number;
}

export interface MailWorker {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * Messages read at once: parsing is CPU work, and each message waits on a few queries, which the
 * messages in hand share (mail-reader-batches.ts). Each holds its bytes (up to MAIL_MAX_MESSAGE_BYTES).
 */
const CONCURRENCY = 16;

/** Reads queued mail messages into events on the events queue, which the event worker decides. */
export function startMailWorker(config: MailWorkerConfig, deps: WorkerDeps, tuning: MailWorkerTuning = {}): MailWorker {
  const events = createEventProducer({ connection: deps.connection, ...producerSettings(config) });
  const settings = {
    bounceDomains: config.BOUNCE_DOMAINS,
    localPart: config.BOUNCE_LOCAL_PART,
    unsignedDomains: config.MAIL_UNSIGNED_DOMAINS,
  };
  const reader = {
    db: deps.db,
    messages: batchedMailMessageStore(deps.db),
    publish: batchedPublisher((list) => events.publishMany(list)),
    settings,
    maxBytes: config.MAIL_MAX_MESSAGE_BYTES,
  };
  const worker = new Worker<unknown, MailReading>(
    MAIL_QUEUE,
    async (job) => {
      const parsed = mailJobSchema.safeParse(job.data);
      // Retrying a job that is not a message cannot make it one.
      if (!parsed.success)
        throw new UnrecoverableError(`not a mail job: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return readMailMessage(reader, parsed.data);
    },
    {
      connection: deps.connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: CONCURRENCY,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
      maxStalledCount: MAX_STALLS,
      ...lockSettings(tuning.lockDurationMs),
      ...queueTelemetry(),
    },
  );
  const { metrics, logger } = deps;
  worker.on('completed', (job) => {
    const reading = job.returnvalue;
    metrics?.mailMessages.inc({ outcome: reading.outcome });
    if (reading.outcome === 'read') {
      for (const record of reading.records) metrics?.mailRecords.inc({ kind: record.kind, outcome: record.outcome });
    }
    // Addresses stay out of the logs above debug: the counts say what happened.
    logger.info(
      {
        jobId: job.id,
        outcome: reading.outcome,
        ...(reading.outcome === 'read'
          ? { format: reading.format, verified: reading.verified, records: reading.records.length }
          : {}),
      },
      'mail message read',
    );
  });
  worker.on('failed', (job, error) => {
    if (job) logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'mail job failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'mail worker error'));
  return {
    worker,
    async close() {
      await worker.close();
      await events.close();
    },
  };
}
