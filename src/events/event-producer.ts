import { producerQueue, type ProducerConnectionOptions } from '../producer-queue.js';
import { EVENTS_QUEUE } from '../queues.js';
import { eventJobId } from './job-id.js';
import {
  InvalidEventError,
  parseSuppressionEvent,
  type SuppressionEvent,
  type SuppressionEventInput,
} from './event-schema.js';

export interface EventProducerOptions extends ProducerConnectionOptions {
  /** Jobs per addBulk call in publishMany. */
  chunkSize?: number;
}

export interface EventProducer {
  /** Validates and enqueues one event; resolves to its job id. */
  publish(event: SuppressionEventInput): Promise<string>;
  /** Validates every event first (nothing is enqueued if one is invalid), then enqueues them in chunks. */
  publishMany(events: readonly SuppressionEventInput[]): Promise<string[]>;
  /**
   * Enqueues events that `parseSuppressionEvent` has already returned (a feed request validates
   * each of its events once, as it maps them), in chunks, without parsing them again.
   */
  publishParsed(events: readonly SuppressionEvent[]): Promise<string[]>;
  close(): Promise<void>;
}

function toJob(event: SuppressionEvent) {
  return { name: event.type, data: event, opts: { jobId: eventJobId(event.account_id, event.event_id) } };
}

/** The library the upstream mail system uses to hand bounces and complaints to this service. */
export function createEventProducer(options: EventProducerOptions): EventProducer {
  const queue = producerQueue(EVENTS_QUEUE, options);
  const chunkSize = options.chunkSize ?? 1000;

  async function enqueue(events: readonly SuppressionEvent[]): Promise<string[]> {
    const jobs = events.map(toJob);
    const target = await queue.open();
    for (let start = 0; start < jobs.length; start += chunkSize) {
      await target.addBulk(jobs.slice(start, start + chunkSize));
    }
    return jobs.map((job) => job.opts.jobId);
  }

  return {
    async publish(event) {
      const job = toJob(parseSuppressionEvent(event));
      await (await queue.open()).add(job.name, job.data, job.opts);
      return job.opts.jobId;
    },
    async publishMany(events) {
      const parsed = events.map((event, index) => {
        try {
          return parseSuppressionEvent(event);
        } catch (error) {
          throw error instanceof InvalidEventError ? new InvalidEventError(`event ${index}: ${error.message}`) : error;
        }
      });
      return enqueue(parsed);
    },
    publishParsed: enqueue,
    close: () => queue.close(),
  };
}
