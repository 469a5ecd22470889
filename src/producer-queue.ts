import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULT_JOB_OPTIONS } from './queues.js';
import { createRedis } from './redis.js';

export interface ProducerConnectionOptions {
  /** An ioredis connection (kept open on close) or a Redis URL (a connection of its own). */
  connection: Redis | string;
  /** BullMQ key prefix; must match the workers' QUEUE_PREFIX. Default `bull`. */
  prefix?: string;
  /** How long a call waits for Redis to answer at all before it fails. Default 10 s. */
  connectTimeoutMs?: number;
  /** Connection errors between calls (calls themselves reject); ignored unless given. */
  onError?: (error: Error) => void;
}

export interface ProducerQueue {
  /** The queue, once Redis has answered. */
  open(): Promise<Queue>;
  close(): Promise<void>;
}

/**
 * A queue for producers. ioredis reconnects forever and BullMQ waits for a first connection
 * without a bound, so a producer started while Redis is away would hang its callers; a ping with
 * a deadline tells them instead, and no queue is made until Redis is there.
 */
export function producerQueue(name: string, options: ProducerConnectionOptions): ProducerQueue {
  const ownsConnection = typeof options.connection === 'string';
  const connection =
    typeof options.connection === 'string' ? createRedis(options.connection, 'producer') : options.connection;
  // ioredis reports each failed reconnection as an 'error' event; the calls report what matters.
  if (ownsConnection) connection.on('error', options.onError ?? (() => undefined));
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  let queue: Queue | undefined;

  return {
    async open() {
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
        queue = new Queue(name, {
          connection,
          prefix: options.prefix ?? 'bull',
          defaultJobOptions: DEFAULT_JOB_OPTIONS,
        });
        // Without a listener an 'error' event would crash the producer's host process.
        queue.on('error', options.onError ?? (() => undefined));
      }
      return queue;
    },
    async close() {
      await queue?.close();
      if (ownsConnection) connection.disconnect();
    },
  };
}
