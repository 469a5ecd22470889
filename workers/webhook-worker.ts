import { Worker } from 'bullmq';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import type { Metrics } from '../src/metrics.js';
import { attemptDelivery, type AttemptOutcome } from '../src/webhooks/attempt-delivery.js';
import { RETRY_DELAYS_MS } from '../src/webhooks/delivery.js';
import {
  createDeliveryQueue,
  queueDeliveries,
  WEBHOOK_DELIVERIES_QUEUE,
  type DeliveryJob,
} from '../src/webhooks/delivery-queue.js';
import { startDispatcher, type Dispatcher, type DispatcherOptions } from '../src/webhooks/dispatcher.js';
import type { RedisClient } from '../src/redis.js';

export interface WebhookWorkerOptions {
  db: Database;
  logger: Logger;
  /** A connection with `maxRetriesPerRequest: null`; BullMQ duplicates it for blocking reads. */
  connection: RedisClient;
  prefix: string;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS. */
  allowPrivateEndpoints: boolean;
  /** Waits between attempts (default: Svix's schedule, RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
  /** Deadline of one attempt (default 10 s). */
  timeoutMs?: number;
  /** The dispatcher's timings. */
  dispatch?: Pick<DispatcherOptions, 'pollMs' | 'batchSize' | 'sweepEveryMs' | 'overdueGraceMs' | 'retentionDays'>;
  metrics?: Metrics;
  /**
   * How long a delivery job stays claimed without its worker renewing the claim; a job whose process
   * died is taken up again after about this long (default BullMQ's 30 s).
   */
  lockDurationMs?: number;
}

export interface WebhookWorker {
  worker: Worker<DeliveryJob, AttemptOutcome>;
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/** Delivers change events: the dispatcher fills the delivery queue from the outbox, the worker makes the attempts. */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, logger, metrics } = options;
  const queue = createDeliveryQueue(options.connection, options.prefix);
  queue.on('error', (error) => logger.warn({ err: error }, 'webhook delivery queue error'));
  const attemptOptions = {
    allowPrivate: options.allowPrivateEndpoints,
    retryDelaysMs: options.retryDelaysMs ?? RETRY_DELAYS_MS,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const worker = new Worker<DeliveryJob, AttemptOutcome>(
    WEBHOOK_DELIVERIES_QUEUE,
    async (job) => {
      const result = await attemptDelivery(db, job.data, attemptOptions);
      if (result.next) await queueDeliveries(queue, [result.next.due], result.next.delayMs);
      if (result.outcome === 'retry' || result.outcome === 'failed') {
        logger.info(
          { deliveryId: job.data.deliveryId, attempt: job.data.attempt, outcome: result.outcome },
          'webhook attempt failed',
        );
      }
      return result.outcome;
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      ...(options.lockDurationMs === undefined
        ? {}
        : { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }),
    },
  );
  if (metrics) worker.on('completed', (job) => metrics.webhookDeliveries.inc({ outcome: job.returnvalue }));
  worker.on('failed', (job, error) => {
    if (job) logger.warn({ deliveryId: job.data.deliveryId, reason: error.message }, 'webhook delivery job failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'webhook worker error'));
  const dispatcher = startDispatcher({ db, logger, queue: (due) => queueDeliveries(queue, due), ...options.dispatch });

  return {
    worker,
    dispatcher,
    async close() {
      await dispatcher.close();
      await worker.close();
      await queue.close();
    },
  };
}
