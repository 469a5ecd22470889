import { Queue } from 'bullmq';
import { DEFAULT_JOB_OPTIONS } from './queues.js';
import { createRedis, type RedisClient, type RedisEndpoint } from './redis.js';
import { LIBRARY_DEFAULTS, type Config } from './config.js';
import { queueTelemetry } from './tracing/queue-telemetry.js';
import { ReplicatedQueue } from './replicated-queue.js';

export interface ProducerConnectionOptions {
  /**
   * An ioredis connection, a `Redis` or a `Cluster` (kept open on close), or a Redis URL or
   * `{ url, clusterNodes }` (a connection of its own).
   */
  connection: RedisClient | RedisEndpoint | string;
  /** BullMQ key prefix; must match the workers' QUEUE_PREFIX (with a hash tag such as `{sl}` on a cluster). Default `bull`. */
  prefix?: string;
  /** How long a call waits for Redis to answer at all before it fails. Default 10 s. */
  connectTimeoutMs?: number;
  /** Connection errors between calls (calls themselves reject); ignored unless given. */
  onError?: (error: Error) => void;
  /**
   * Puts the active OpenTelemetry trace in each job, so that the worker's span for it continues the
   * producer's trace: for a host process that runs an OpenTelemetry SDK of its own. Default: only
   * in the service's own processes, when they trace.
   */
  tracing?: boolean;
  /**
   * Replicas that must hold a job before a publish resolves (every connected replica, when fewer
   * are): a publish then survives its master dying just after taking it. Default 0: the master's
   * acknowledgement is enough.
   */
  replicas?: number;
}

/**
 * The settings a producer of the service's own takes from its configuration: the queues' prefix,
 * and the replicas each job waits for.
 */
export function producerSettings(config: Pick<Config, 'QUEUE_PREFIX' | 'REDIS_WAIT_REPLICAS'>) {
  return { prefix: config.QUEUE_PREFIX, replicas: config.REDIS_WAIT_REPLICAS };
}

export interface ProducerQueue {
  /** The queue, once Redis has answered. */
  open(): Promise<Queue>;
  close(): Promise<void>;
}

/** A client made by the caller, maybe with an ioredis of its own, so told apart by shape rather than class. */
function isClient(connection: ProducerConnectionOptions['connection']): connection is RedisClient {
  return typeof connection !== 'string' && 'ping' in connection;
}

/**
 * A queue for producers. ioredis reconnects forever and BullMQ waits for a first connection
 * without a bound, so a producer started while Redis is away would hang its callers; a ping with
 * a deadline tells them instead, and no queue is made until Redis is there.
 */
export function producerQueue(name: string, options: ProducerConnectionOptions): ProducerQueue {
  const given = options.connection;
  const ownsConnection = !isClient(given);
  const connection = isClient(given) ? given : createRedis(given, 'producer');
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
        const queueOptions = {
          connection,
          prefix: options.prefix ?? LIBRARY_DEFAULTS.queuePrefix,
          defaultJobOptions: DEFAULT_JOB_OPTIONS,
          ...queueTelemetry(options.tracing === true),
        };
        const replicas = options.replicas ?? 0;
        queue = replicas > 0 ? new ReplicatedQueue(name, queueOptions, replicas) : new Queue(name, queueOptions);
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
