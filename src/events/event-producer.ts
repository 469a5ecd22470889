import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULT_JOB_OPTIONS, EVENTS_QUEUE } from '../queues.js';
import { createRedis } from '../redis.js';
import { eventJobId } from './job-id.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEvent, type SuppressionEventInput } from './event-schema.js';

export interface EventProducerOptions {
  /** An ioredis connection (kept open on close) or a Redis URL (a connection of its own). */
  connection: Redis | string;
  /** BullMQ key prefix; must match the workers' QUEUE_PREFIX. Default `bull`. */
  prefix?: string;
  /** Jobs per addBulk call in publishMany. */
  chunkSize?: number;
  /** How long a call waits for Redis to answer at all before it fails. Default 10 s. */
  connectTimeoutMs?: number;
  /** Connection errors between calls (calls themselves reject); ignored unless given. */
  onError?: (error: Error) => void;
}

export interface EventProducer {
  /** Validates and enqueues one event; resolves to its job id. */
  publish(event: SuppressionEventInput): Promise<string>;
  /** Validates every event first (nothing is enqueued if one is invalid), then enqueues them in chunks. */
  publishMany(events: readonly SuppressionEventInput[]): Promise<string[]>;
  close(): Promise<void>;
}

function toJob(event: SuppressionEvent) {
  return { name: event.type, data: event, opts: { jobId: eventJobId(event.account_id, event.event_id) } };
}

/** The library the upstream mail system uses to hand bounces and complaints to this service. */
export function createEventProducer(options: EventProducerOptions): EventProducer {
  const ownsConnection = typeof options.connection === 'string';
  const connection = typeof options.connection === 'string' ? createRedis(options.connection, 'producer') : options.connection;
  // ioredis reports each failed reconnection as an 'error' event; the calls report what matters.
  if (ownsConnection) connection.on('error', options.onError ?? (() => undefined));
  const chunkSize = options.chunkSize ?? 1000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  let queue: Queue | undefined;

  /**
   * The queue, once Redis has answered. ioredis reconnects forever and BullMQ waits for a first
   * connection without a bound, so a producer started while Redis is away would hang its callers;
   * a ping with a deadline tells them instead, and no queue is made until Redis is there.
   */
  async function openQueue(): Promise<Queue> {
    if (queue) return queue;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    });
    try {
      await Promise.race([connection.ping(), deadline]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Redis did not answer: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (!queue) {
      queue = new Queue(EVENTS_QUEUE, { connection, prefix: options.prefix ?? 'bull', defaultJobOptions: DEFAULT_JOB_OPTIONS });
      // Without a listener an 'error' event would crash the producer's host process.
      queue.on('error', options.onError ?? (() => undefined));
    }
    return queue;
  }

  return {
    async publish(event) {
      const job = toJob(parseSuppressionEvent(event));
      await (await openQueue()).add(job.name, job.data, job.opts);
      return job.opts.jobId;
    },
    async publishMany(events) {
      const jobs = events.map((event, index) => {
        try {
          return toJob(parseSuppressionEvent(event));
        } catch (error) {
          throw error instanceof InvalidEventError ? new InvalidEventError(`event ${index}: ${error.message}`) : error;
        }
      });
      const target = await openQueue();
      for (let start = 0; start < jobs.length; start += chunkSize) {
        await target.addBulk(jobs.slice(start, start + chunkSize));
      }
      return jobs.map((job) => job.opts.jobId);
    },
    async close() {
      await queue?.close();
      if (ownsConnection) connection.disconnect();
    },
  };
}
