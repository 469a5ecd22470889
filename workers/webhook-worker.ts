import { Worker } from 'bullmq';
import type { Config } from '../src/config.js';
import { attemptDelivery, type AttemptOutcome } from '../src/webhooks/attempt-delivery.js';
import { RETRY_DELAYS_MS } from '../src/webhooks/delivery.js';
import {
  createDeliveryQueue,
  queueDeliveries,
  WEBHOOK_DELIVERIES_QUEUE,
  type DeliveryJob,
} from '../src/webhooks/delivery-queue.js';
import { startDispatcher, type Dispatcher, type DispatcherOptions } from '../src/webhooks/dispatcher.js';
import { queueTelemetry } from '../src/tracing/queue-telemetry.js';
import { lockSettings, type WorkerDeps } from './worker-deps.js';

export type WebhookWorkerConfig = Pick<
  Config,
  'QUEUE_PREFIX' | 'WEBHOOK_DELIVERY_CONCURRENCY' | 'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS' | 'WEBHOOKS_PRIVATE_CIDRS'
>;

export interface WebhookWorkerTuning {
  /** Waits between attempts (default: Svix's schedule, RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
  /** Deadline of one attempt (default 10 s). */
  timeoutMs?: number;
  /** The dispatcher's timings. */
  dispatch?: Pick<DispatcherOptions, 'pollMs' | 'batchSize' | 'sweepEveryMs' | 'overdueGraceMs'>;
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
export function startWebhookWorker(
  config: WebhookWorkerConfig,
  deps: WorkerDeps,
  tuning: WebhookWorkerTuning = {},
): WebhookWorker {
  const { db, logger, metrics, connection } = deps;
  const prefix = config.QUEUE_PREFIX;
  const queue = createDeliveryQueue(connection, prefix);
  queue.on('error', (error) => logger.warn({ err: error }, 'webhook delivery queue error'));
  const attemptOptions = {
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS,
    privateCidrs: config.WEBHOOKS_PRIVATE_CIDRS,
    retryDelaysMs: tuning.retryDelaysMs ?? RETRY_DELAYS_MS,
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
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
      connection,
      prefix,
      concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
      ...lockSettings(tuning.lockDurationMs),
      ...queueTelemetry(),
    },
  );
  if (metrics) worker.on('completed', (job) => metrics.webhookDeliveries.inc({ outcome: job.returnvalue }));
  worker.on('failed', (job, error) => {
    if (job) logger.warn({ deliveryId: job.data.deliveryId, reason: error.message }, 'webhook delivery job failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'webhook worker error'));
  const dispatcher = startDispatcher({ db, logger, queue: (due) => queueDeliveries(queue, due), ...tuning.dispatch });

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
