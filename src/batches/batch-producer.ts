import { Job } from 'bullmq';
import { producerQueue, type ProducerConnectionOptions } from '../producer-queue.js';
import { BATCHES_QUEUE, KEEP_BATCH_RESULTS } from '../queues.js';
import { parseAddBatch, parseRemoveBatch, type AddBatchInput, type RemoveBatchInput } from './batch-schema.js';

export interface BatchProducer {
  /** Validates and enqueues an `add` job (up to 10,000 addresses); resolves to its job id. */
  add(job: AddBatchInput): Promise<string>;
  /** Validates and enqueues a `remove` job (up to 10,000 addresses or ids); resolves to its job id. */
  remove(job: RemoveBatchInput): Promise<string>;
  /** Where a job stands: finished with its result, failed for good with why, still to run, or gone. */
  outcome(id: string): Promise<BatchJobOutcome>;
  close(): Promise<void>;
}

export type BatchJobOutcome =
  | { state: 'completed'; result: unknown }
  | { state: 'failed'; reason: string }
  | { state: 'pending' }
  | { state: 'unknown' };

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
    async outcome(id) {
      const open = await queue.open();
      const state = await open.getJobState(id);
      if (state === 'unknown') return { state: 'unknown' };
      if (state !== 'completed' && state !== 'failed') return { state: 'pending' };
      const job = await Job.fromId(open, id);
      if (!job) return { state: 'unknown' };
      return state === 'completed' ? { state, result: job.returnvalue } : { state, reason: job.failedReason };
    },
    close: () => queue.close(),
  };
}
