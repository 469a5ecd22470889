import { Redis, type RedisOptions } from 'ioredis';

const OPTIONS: Record<RedisRole, RedisOptions> = {
  // Workers block on Redis and must wait through outages.
  worker: { maxRetriesPerRequest: null },
  // Producers wait out a short blip, then report the failure to their caller.
  producer: { maxRetriesPerRequest: 3 },
  // Request paths must answer fast instead of queueing commands while Redis is away.
  request: { maxRetriesPerRequest: 1, enableOfflineQueue: false },
};

export type RedisRole = 'worker' | 'producer' | 'request';

export function createRedis(url: string, role: RedisRole): Redis {
  return new Redis(url, OPTIONS[role]);
}

/**
 * A producer-style connection that has answered a PING: commands check Redis before doing
 * anything, since BullMQ would wait for it however long it takes.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const connection = createRedis(url, 'producer');
  // The failure is reported once, below; ioredis would otherwise report every reconnection.
  connection.on('error', () => undefined);
  try {
    await connection.ping();
  } catch (error) {
    connection.disconnect();
    const { host } = new URL(url);
    throw new Error(`Redis at ${host} does not answer: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return connection;
}
