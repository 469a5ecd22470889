import { Queue, type ConnectionOptions } from 'bullmq';
import { queueTelemetry } from '../tracing/queue-telemetry.js';
import { tracingEnabled } from '../tracing/tracing.js';
import type { DueDelivery } from './delivery.js';

export const WEBHOOK_DELIVERIES_QUEUE = 'webhook-deliveries';

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
}

/**
 * One job per attempt of a round: queueing the same attempt twice (the dispatcher and the sweeper,
 * or two sweepers) adds it once while the first is still in the queue.
 */
export function deliveryJobId(due: DueDelivery): string {
  return `${due.deliveryId}-${due.attempt}-${due.roundStart}`;
}

export function createDeliveryQueue(connection: ConnectionOptions, prefix: string): Queue<DeliveryJob> {
  return new Queue<DeliveryJob>(WEBHOOK_DELIVERIES_QUEUE, {
    connection,
    prefix,
    // The database holds every delivery's state and attempts; a job is only the nudge to make one.
    // Kept jobs would block the sweeper from queueing the same attempt again.
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: true,
    },
    ...queueTelemetry(),
  });
}

/** Queues these attempts, each after `delayMs`; one that is still queued is not queued twice. */
export async function queueDeliveries(
  queue: Queue<DeliveryJob>,
  due: readonly DueDelivery[],
  delayMs = 0,
): Promise<void> {
  if (due.length === 0) return;
  await queue.addBulk(
    due.map((delivery) => ({
      name: 'deliver',
      data: { deliveryId: delivery.deliveryId, attempt: delivery.attempt },
      opts: {
        jobId: deliveryJobId(delivery),
        ...(delayMs > 0 ? { delay: delayMs } : {}),
        // A change's first attempt continues the trace of the write that made it, not the dispatcher's.
        ...(delivery.traceparent && tracingEnabled()
          ? { telemetry: { metadata: JSON.stringify({ traceparent: delivery.traceparent }) } }
          : {}),
      },
    })),
  );
}
