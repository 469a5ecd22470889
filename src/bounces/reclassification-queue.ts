import { producerQueue, type ProducerConnectionOptions } from '../producer-queue.js';
import { KEEP_COMPLETED, KEEP_FAILED, MAINTENANCE_QUEUE } from '../queues.js';

/** The maintenance job that runs one reclassification; its data is `{reclassification_id}`. */
export const RECLASSIFY_JOB = 'reclassify-bounces';

export interface ReclassificationQueue {
  /** Queues the run of this id; the same id is one job however often it is queued. */
  queue(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Queues reclassifications on the maintenance queue, run by the workers one at a time per
 * process. A failed attempt is retried from the start; after the last, the run is marked failed.
 */
export function createReclassificationQueue(options: ProducerConnectionOptions): ReclassificationQueue {
  const queue = producerQueue(MAINTENANCE_QUEUE, options);
  return {
    async queue(id) {
      await (
        await queue.open()
      ).add(
        RECLASSIFY_JOB,
        { reclassification_id: id },
        {
          jobId: `${RECLASSIFY_JOB}.${id}`,
          attempts: 3,
          backoff: { type: 'exponential', delay: 5000 },
          removeOnComplete: KEEP_COMPLETED,
          removeOnFail: KEEP_FAILED,
        },
      );
    },
    close: () => queue.close(),
  };
}
