import { Worker } from 'bullmq';
import { WORKER_TUNING, type Config } from '../src/config.js';
import type { BounceClassifier } from '../src/events/event-decision.js';
import { PROVIDERS } from '../src/feeds/providers/index.js';
import { EVENTS_QUEUE, KEEP_COMPLETED, KEEP_FAILED, MAX_STALLS } from '../src/queues.js';
import { queueTelemetry } from '../src/tracing/queue-telemetry.js';
import { createEventProcessor, type EventJobResult } from './event-processor.js';
import { lockSettings, type WorkerDeps } from './worker-deps.js';

export type EventWorkerConfig = Pick<Config, 'QUEUE_PREFIX' | 'WORKER_CONCURRENCY'>;

export interface EventWorkerDeps extends WorkerDeps {
  /** How bounces are classified: the core's classifier unless another is given (the ingest benchmark compares the label rule). */
  classify?: BounceClassifier;
}

export type EventWorkerTuning = { -readonly [K in keyof typeof WORKER_TUNING.events]: number } & {
  /** How long a job stays claimed without its worker renewing the claim (default BullMQ's 30 s). */
  lockDurationMs: number;
};

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

export function startEventWorker(
  config: EventWorkerConfig,
  deps: EventWorkerDeps,
  tuning: Partial<EventWorkerTuning> = {},
): EventWorker {
  const defaults = WORKER_TUNING.events;
  const processor = createEventProcessor(
    deps.db,
    {
      maxBatch: tuning.batchSize ?? defaults.batchSize,
      maxDelayMs: tuning.batchDelayMs ?? defaults.batchDelayMs,
      maxInFlight: tuning.batchesInFlight ?? defaults.batchesInFlight,
    },
    deps.classify,
  );
  const worker = new Worker<unknown, EventJobResult>(EVENTS_QUEUE, (job) => processor.process(job), {
    connection: deps.connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    // Jobs from producers in other languages get the same retention as ours.
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
    maxStalledCount: MAX_STALLS,
    ...lockSettings(tuning.lockDurationMs),
    ...queueTelemetry(),
  });
  const { metrics, logger } = deps;
  if (metrics) {
    worker.on('completed', (job) => {
      const result = job.returnvalue as EventJobResult | undefined;
      if (result?.outcome) {
        const named = typeof (job.data as { scope?: unknown } | undefined)?.scope === 'string';
        metrics.eventsProcessed.inc({ outcome: result.outcome, message_scope: named ? 'named' : 'none' });
      }
      if (result?.category) {
        metrics.bouncesClassified.inc({ category: result.category, provider: providerLabel(job.data) });
      }
    });
    worker.on('failed', () => metrics.eventsProcessed.inc({ outcome: 'failed' }));
  }
  worker.on('failed', (job, error) => {
    if (job) logger.warn({ jobId: job.id, attempt: job.attemptsMade, reason: error.message }, 'event job failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'event worker error'));

  return {
    worker,
    async close() {
      await worker.close();
      await processor.drain();
    },
  };
}
