import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from './config.js';

const OPTIONS: Record<RedisRole, RedisOptions> = {
  // Workers block on Redis and must wait through outages.
  worker: { maxRetriesPerRequest: null },
  // Producers wait out a short blip, then report the failure to their caller.
  producer: { maxRetriesPerRequest: 3 },
  // Request paths must answer fast instead of queueing commands while Redis is away.
  request: { maxRetriesPerRequest: 1, enableOfflineQueue: false },
};

export type RedisRole = 'worker' | 'producer' | 'request';

/** A client of one Redis server or of a Redis Cluster: every Redis user of the service takes either. */
export type RedisClient = Redis | Cluster;

export interface RedisNode {
  host: string;
  port: number;
}

/** Where Redis is. */
export interface RedisEndpoint {
  /** The server; with `clusterNodes`, only its user name, password and TLS (`rediss:`) are used. */
  url: string;
  /** Seed nodes of a Redis Cluster: when given, clients are cluster clients. */
  clusterNodes?: readonly RedisNode[] | undefined;
}

/** The endpoint the configuration names: REDIS_URL, and REDIS_CLUSTER_NODES when set. */
export function redisEndpoint(config: Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>): RedisEndpoint {
  return { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES };
}

/** What each node of a cluster is told: the role's options, and the URL's credentials and TLS. */
function nodeOptions(url: string, role: RedisRole): RedisOptions {
  const parsed = new URL(url);
  return {
    ...OPTIONS[role],
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * A command for a master that died is tried again every `retryDelayOnFailover` ms, up to
 * `maxRedirections` times, while a replica takes over: a worker's for a minute, enough for a
 * failover at Redis's default `cluster-node-timeout` of 15 s; a producer's and a request's for
 * about ioredis's default of 2 s, after which their caller hears of it.
 */
const FAILOVER_RETRIES: Record<RedisRole, Pick<ClusterOptions, 'retryDelayOnFailover' | 'maxRedirections'>> = {
  worker: { retryDelayOnFailover: 500, maxRedirections: 120 },
  producer: { retryDelayOnFailover: 100, maxRedirections: 16 },
  request: { retryDelayOnFailover: 100, maxRedirections: 16 },
};

function clusterOptions(url: string, role: RedisRole): ClusterOptions {
  return {
    redisOptions: nodeOptions(url, role),
    ...FAILOVER_RETRIES[role],
    enableReadyCheck: true,
    // ioredis keeps every node's own offline queue on; this one holds commands while no node is
    // known, so a request path refuses them at once instead.
    enableOfflineQueue: role !== 'request',
    // Keep looking for the cluster however long it is away: every role's clients are long-lived.
    clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
  };
}

export function createRedis(url: string, role: RedisRole): Redis;
export function createRedis(endpoint: RedisEndpoint | string, role: RedisRole): RedisClient;
export function createRedis(endpoint: RedisEndpoint | string, role: RedisRole): RedisClient {
  const { url, clusterNodes } = typeof endpoint === 'string' ? { url: endpoint, clusterNodes: undefined } : endpoint;
  if (clusterNodes === undefined || clusterNodes.length === 0) return new Redis(url, OPTIONS[role]);
  return new Cluster(
    clusterNodes.map(({ host, port }) => ({ host, port })),
    clusterOptions(url, role),
  );
}

/** Where an endpoint is, for messages: never its credentials. */
export function describeRedis(endpoint: RedisEndpoint | string): string {
  if (typeof endpoint !== 'string' && endpoint.clusterNodes?.length) {
    return `Redis Cluster at ${endpoint.clusterNodes.map(({ host, port }) => `${host}:${port}`).join(', ')}`;
  }
  return `Redis at ${new URL(typeof endpoint === 'string' ? endpoint : endpoint.url).host}`;
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A producer-style connection that has answered a PING: commands check Redis before doing
 * anything, since BullMQ would wait for it however long it takes. A cluster client holds commands
 * until it finds a node, so the PING has a deadline too.
 */
export async function connectRedis(endpoint: RedisEndpoint | string): Promise<RedisClient> {
  const connection = createRedis(endpoint, 'producer');
  // The failure is reported once, below; ioredis would otherwise report every reconnection.
  connection.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([connection.ping(), deadline]);
  } catch (error) {
    connection.disconnect();
    throw new Error(
      `${describeRedis(endpoint)} does not answer: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  return connection;
}
