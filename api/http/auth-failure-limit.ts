import type { Request } from 'express';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { RateLimitExceededError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { RedisClient } from '../../src/redis.js';

export interface AuthFailureLimitOptions {
  /** A fail-fast ('request' role) client. */
  redis: RedisClient;
  logger: Logger;
  /** Failed authentications per second per client address before its requests are refused. */
  failuresPerSecond: number;
  /** Namespace of the counters in Redis (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  onRedisFailure?: (error: unknown) => void;
  onRejected?: () => void;
}

export interface AuthFailureLimit {
  /** Resolves when the address may try to authenticate, or rejects with 429 `rate_limit_exceeded`. */
  check(req: Request): Promise<void>;
  /** Counts a failed authentication (no key, or a key that is not valid) against the address. */
  recordFailure(req: Request): void;
}

function clientAddress(req: Request): string {
  // `req.ip` honours the app's `trust proxy` setting.
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * A limit on failed authentications per client address, kept in Redis so that it holds across
 * processes. Every request the key cache cannot admit is checked before any database work: an
 * address that has failed `failuresPerSecond` times in the current one-second window gets 429
 * until the window ends, so a flood of made-up keys costs a Redis read each, not a lookup. Keys
 * that are valid never count, so many customers' keys seen for the first time from one platform
 * are not slowed down. It fails open like the account limit: when Redis cannot be asked, the
 * request goes on and the failure is reported.
 */
export function createAuthFailureLimit(options: AuthFailureLimitOptions): AuthFailureLimit {
  const limit = options.failuresPerSecond;
  const failures = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.keyPrefix}auth-failures`,
    points: limit,
    duration: 1,
    rejectIfRedisNotReady: true,
  });

  function redisFailed(error: unknown): void {
    options.logger.warn({ err: error }, 'authentication failure limit unavailable, request let through');
    options.onRedisFailure?.(error);
  }

  return {
    async check(req) {
      let counted: Awaited<ReturnType<typeof failures.get>>;
      try {
        counted = await failures.get(clientAddress(req));
      } catch (error: unknown) {
        redisFailed(error);
        return;
      }
      if (counted === null || counted.consumedPoints < limit) return;
      options.onRejected?.();
      throw new RateLimitExceededError(Math.max(1, Math.ceil(counted.msBeforeNext / 1000)));
    },
    recordFailure(req) {
      failures.penalty(clientAddress(req), 1).catch(redisFailed);
    },
  };
}
