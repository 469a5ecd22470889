import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
import { createRedis } from '../../src/redis.js';
import { unreachableRedis } from './unreachable.js';

export interface TestRedis {
  /** A ready 'request' client on the tests' Redis. */
  readonly client: Redis;
  /** The namespace of this test file's keys in Redis; cleanup() removes every key under it. */
  readonly keyPrefix: string;
  /** Another 'request' client on the tests' Redis, ready, as another process would have. */
  newClient(): Promise<Redis>;
  /** A 'request' client on a port nothing listens on. */
  unreachableClient(): Promise<Redis>;
  /** Removes this file's keys and closes every client made here. */
  cleanup(): Promise<void>;
}

/** Redis clients of this test file's own, and a key prefix no other file uses. */
export async function createTestRedis(): Promise<TestRedis> {
  const keyPrefix = `test-${randomBytes(5).toString('hex')}:`;
  const live: Redis[] = [];
  const unreachable: Redis[] = [];
  const newClient = async (): Promise<Redis> => {
    const client = createRedis(inject('redisUrl'), 'request');
    live.push(client);
    // A 'request' client refuses commands until it is ready, rather than queueing them.
    await once(client, 'ready');
    return client;
  };
  const client = await newClient();
  return {
    client,
    keyPrefix,
    newClient,
    unreachableClient: async () => {
      const dead = await unreachableRedis();
      unreachable.push(dead);
      return dead;
    },
    cleanup: async () => {
      const keys = await client.keys(`${keyPrefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await Promise.all(live.map((each) => each.quit().catch(() => each.disconnect())));
      for (const dead of unreachable) dead.disconnect();
    },
  };
}

/** For the whole test file: Redis clients and a key prefix of its own, its keys removed afterwards. */
export function useTestRedis(): Omit<TestRedis, 'cleanup'> {
  const setup = {} as TestRedis;
  beforeAll(async () => {
    Object.assign(setup, await createTestRedis());
  });
  afterAll(async () => {
    await setup.cleanup?.();
  });
  return setup;
}
