import type { RequestHandler } from 'express';
import type { Config } from '../src/config.js';
import type { Logger } from '../src/logger.js';
import type { RedisClient } from '../src/redis.js';
import { createAuthFailureLimit, type AuthFailureLimit } from './http/auth-failure-limit.js';
import { idempotency } from './http/idempotency.js';
import { createRateLimiter } from './http/rate-limit.js';

export type RedisGuardsConfig = Pick<Config, 'REDIS_KEY_PREFIX' | 'RATE_LIMIT_PER_SECOND' | 'AUTH_FAILURES_PER_SECOND'>;

export interface RedisGuardsDeps {
  /** A fail-fast ('request' role) client; without it, no guard is mounted. */
  redis?: RedisClient | undefined;
  logger: Logger;
  /** Called when a limit could not reach Redis and let a request through. */
  onRedisFailure: () => void;
  /** Called when a request is refused with 429. */
  onRejected: () => void;
}

export interface RedisGuards {
  failureLimit?: AuthFailureLimit;
  rateLimited: RequestHandler[];
  idempotent: RequestHandler[];
}

/** Rate limits and idempotency keys, all kept in Redis; none is mounted without a client. */
export function redisGuards(config: RedisGuardsConfig, deps: RedisGuardsDeps): RedisGuards {
  const { redis, logger } = deps;
  if (!redis) return { rateLimited: [], idempotent: [] };
  const keyPrefix = config.REDIS_KEY_PREFIX;
  const limits = { redis, logger, keyPrefix, onRedisFailure: deps.onRedisFailure, onRejected: deps.onRejected };
  const failureLimit = createAuthFailureLimit({ ...limits, failuresPerSecond: config.AUTH_FAILURES_PER_SECOND });
  const rateLimiter = createRateLimiter({ ...limits, pointsPerSecond: config.RATE_LIMIT_PER_SECOND });
  return { failureLimit, rateLimited: [rateLimiter], idempotent: [idempotency({ redis, logger, keyPrefix })] };
}
