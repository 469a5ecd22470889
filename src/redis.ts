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
