import { producerQueue, type ProducerConnectionOptions } from '../producer-queue.js';
import { BATCHES_QUEUE, KEEP_BATCH_RESULTS } from '../queues.js';
import { parseAddBatch, parseRemoveBatch, type AddBatchInput, type RemoveBatchInput } from './batch-schema.js';

export interface BatchProducer {
  /** Validates and enqueues an `add` job (up to 10,000 addresses); resolves to its job id. */
  add(job: AddBatchInput): Promise<string>;
  /** Validates and enqueues a `remove` job (up to 10,000 addresses or ids); resolves to its job id. */
  remove(job: RemoveBatchInput): Promise<string>;
  close(): Promise<void>;
}

const JOB_OPTIONS = { removeOnComplete: KEEP_BATCH_RESULTS };

/** Enqueues bulk additions and removals on `suppression-batches`, for lists of any size. */
export function createBatchProducer(options: ProducerConnectionOptions): BatchProducer {
  const queue = producerQueue(BATCHES_QUEUE, options);
  return {
    async add(job) {
      const added = await (await queue.open()).add('add', parseAddBatch(job), JOB_OPTIONS);
      return added.id as string;
    },
    async remove(job) {
      const added = await (await queue.open()).add('remove', parseRemoveBatch(job), JOB_OPTIONS);
      return added.id as string;
    },
    close: () => queue.close(),
  };
}
