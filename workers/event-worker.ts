import { Worker } from 'bullmq';
import type { Database } from '../src/db/database.js';
import type { BounceClassifier } from '../src/events/classify.js';
import type { Logger } from '../src/logger.js';
import type { Metrics } from '../src/metrics.js';
import { PROVIDERS } from '../src/feeds/feed-mapping.js';
import { EVENTS_QUEUE, KEEP_COMPLETED, KEEP_FAILED, MAX_STALLS } from '../src/queues.js';
import { createEventProcessor, type EventJobResult } from './event-processor.js';
import type { RedisClient } from '../src/redis.js';

export interface EventWorkerOptions {
  db: Database;
  logger: Logger;
  /** A connection with `maxRetriesPerRequest: null`; BullMQ duplicates it for blocking reads. */
  connection: RedisClient;
  prefix: string;
  concurrency: number;
  /** Rows per multi-row statement, and how long the first job of a batch waits for company. */
  batchSize?: number;
  batchDelayMs?: number;
  /** Batches written at once. */
  batchesInFlight?: number;
  /** Where processed events are counted by outcome. */
  metrics?: Metrics;
  /** How bounces are classified: the core's classifier unless another is given (the ingest benchmark compares the label rule). */
  classify?: BounceClassifier;
}

export interface EventWorker {
  worker: Worker;
  /** Stops taking jobs, lets active ones finish (their rows committed), then returns. */
  close(): Promise<void>;
}

/**
 * The bounce's provider as a metric label: a feed's name, `none` when the event names none, or
 * `other` for a mail system's own word, so the labels stay few. Read from the job's data, which
 * the processor validated.
 */
function providerLabel(data: unknown): string {
  const provider = (data as { bounce?: { provider?: unknown } } | undefined)?.bounce?.provider;
  if (typeof provider !== 'string' || provider === '') return 'none';
  return (PROVIDERS as readonly string[]).includes(provider) ? provider : 'other';
}

export function startEventWorker(options: EventWorkerOptions): EventWorker {
  const processor = createEventProcessor(
    options.db,
    {
      maxBatch: options.batchSize ?? 500,
      maxDelayMs: options.batchDelayMs ?? 5,
      maxInFlight: options.batchesInFlight ?? 2,
    },
    options.classify,
  );
  const worker = new Worker<unknown, EventJobResult>(EVENTS_QUEUE, (job) => processor.process(job), {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    // Jobs from producers in other languages get the same retention as ours.
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
    maxStalledCount: MAX_STALLS,
  });
  const { metrics } = options;
  if (metrics) {
    worker.on('completed', (job) => {
      const result = job.returnvalue as EventJobResult | undefined;
      if (result?.outcome) metrics.eventsProcessed.inc({ outcome: result.outcome });
      if (result?.category) {
        metrics.bouncesClassified.inc({ category: result.category, provider: providerLabel(job.data) });
      }
    });
    worker.on('failed', () => metrics.eventsProcessed.inc({ outcome: 'failed' }));
  }
  worker.on('failed', (job, error) => {
    if (job)
      options.logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'event job failed');
  });
  worker.on('error', (error) => options.logger.error({ err: error }, 'event worker error'));

  return {
    worker,
    async close() {
      await worker.close();
      await processor.drain();
    },
  };
}
