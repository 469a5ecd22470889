import { z } from 'zod';
import { commaList, wholeNumber } from './config-values.js';

const clusterNode = z
  .string()
  .regex(/^[^:\s]+:[0-9]+$/, { error: 'each must be host:port' })
  .transform((node) => {
    const colon = node.lastIndexOf(':');
    return { host: node.slice(0, colon), port: Number(node.slice(colon + 1)) };
  })
  .pipe(z.object({ host: z.string(), port: z.number().min(1).max(65535, { error: 'must be a port number' }) }));

/**
 * Redis's rule: a key's slot is the hash of the text between its first `{` and the first `}` after
 * it, when that text is not empty.
 */
function hasHashTag(prefix: string): boolean {
  const open = prefix.indexOf('{');
  return open !== -1 && prefix.indexOf('}', open + 1) > open + 1;
}

/**
 * The settings of the service's Redis: where it is, how its records are named, and how many replicas
 * hold a queued job. Part of the one configuration `src/config.ts` parses.
 */
export const REDIS_SETTINGS = {
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /**
   * Redis Cluster seed nodes, a comma list of `host:port`: when set, every Redis client is a cluster
   * client, and REDIS_URL gives only the user name, password and TLS (`rediss:`) of the nodes.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .transform(commaList)
    .pipe(z.array(clusterNode).min(1, { error: 'must name at least one host:port' }))
    .optional(),
  /**
   * Replicas that must hold a queued job before the service counts it taken (every connected
   * replica, when its master has fewer): Redis replicates asynchronously, so without this a master
   * that dies just after taking an event loses it. 0: the master's answer is enough.
   */
  REDIS_WAIT_REPLICAS: wholeNumber.pipe(z.number().max(16, { error: 'must be at most 16' })).default(0),
  /**
   * Namespace of the API's own records in Redis (rate limits, failed authentications, idempotency
   * keys, feed replay tokens), so that services sharing a Redis keep apart.
   */
  REDIS_KEY_PREFIX: z.string().regex(/^\S+$/, { error: 'must not contain spaces' }).default('sl:'),
};

type RedisSettings = z.output<z.ZodObject<typeof REDIS_SETTINGS>> & { QUEUE_PREFIX: string };

/** The rules a Redis Cluster sets on the other settings, checked once each has parsed. */
export function checkRedisSettings(config: RedisSettings, context: z.RefinementCtx): void {
  if (config.REDIS_CLUSTER_NODES === undefined) return;
  // BullMQ's scripts touch many keys of a queue at once; on a cluster they must all hash to one slot.
  if (!hasHashTag(config.QUEUE_PREFIX)) {
    context.addIssue({
      code: 'custom',
      path: ['QUEUE_PREFIX'],
      message:
        "must contain a hash tag such as {sl} when REDIS_CLUSTER_NODES is set: BullMQ keeps each queue's keys in one slot",
    });
  }
  // Each of these records is one key, so they spread over the slots; a hash tag would put them all,
  // the busiest keys of every request, on one node.
  if (hasHashTag(config.REDIS_KEY_PREFIX)) {
    context.addIssue({
      code: 'custom',
      path: ['REDIS_KEY_PREFIX'],
      message:
        'must not contain a hash tag when REDIS_CLUSTER_NODES is set: its records are single keys, and a tag would put them all on one node',
    });
  }
  // A cluster has database 0 only; a number in the URL would otherwise be ignored without a word.
  if (!['', '/', '/0'].includes(new URL(config.REDIS_URL).pathname)) {
    context.addIssue({
      code: 'custom',
      path: ['REDIS_URL'],
      message: 'must not name a database when REDIS_CLUSTER_NODES is set: a cluster has database 0 only',
    });
  }
}
