import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { RateLimitExceededError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { callerOf } from './authenticate.js';
import { LeasedRateLimiter, type Admission } from './rate-limit-leases.js';
import type { RedisClient } from '../../src/redis.js';

export interface RateLimiterOptions {
  /** A fail-fast ('request' role) client: commands fail at once while Redis is away. */
  redis: RedisClient;
  /** Requests each account may make per second, across every process sharing this Redis. */
  pointsPerSecond: number;
  logger: Logger;
  /** Namespace of the counters in Redis (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  /** Called each time Redis could not be asked and the request was let through (fail open). */
  onRedisFailure?: (error: unknown) => void;
  /** Called each time a request is refused with 429. */
  onRejected?: () => void;
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

function setHeaders(res: Response, limit: number, remaining: number, resetSeconds: number): void {
  res.set({
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetSeconds),
  });
}

/**
 * Per-account rate limiting kept in Redis (a fixed one-second window of `pointsPerSecond`), so the
 * limit holds across processes; Redis is asked once per lease of points, not once per request (see
 * `LeasedRateLimiter`). Mount it after `authenticate`. Every response carries `ratelimit-limit`,
 * `ratelimit-remaining` and `ratelimit-reset` (whole seconds); over the limit it answers 429
 * `rate_limit_exceeded` with `retry-after`. When Redis cannot be reached the request is served
 * (fails open): the failure is logged and reported through `onRedisFailure`.
 */
export function createRateLimiter(options: RateLimiterOptions): RequestHandler {
  const limit = options.pointsPerSecond;
  const limiter = new LeasedRateLimiter(
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: `${options.keyPrefix}ratelimit`,
      points: limit,
      duration: 1,
      // Do not wait for a reconnect: answer from the error path at once.
      rejectIfRedisNotReady: true,
    }),
    limit,
  );

  function answer(res: Response, next: NextFunction, admission: Admission): void {
    if (!admission.allowed) {
      const retryAfter = Math.max(1, seconds(admission.resetMs));
      setHeaders(res, limit, 0, retryAfter);
      options.onRejected?.();
      throw new RateLimitExceededError(retryAfter);
    }
    setHeaders(res, limit, admission.remaining, seconds(admission.resetMs));
    next();
  }

  async function admitAfterLease(accountId: string, res: Response, next: NextFunction): Promise<void> {
    let admission: Admission;
    try {
      admission = await limiter.admit(accountId);
    } catch (error: unknown) {
      // Redis is unreachable or failed: serve the request rather than refuse everyone.
      options.logger.warn({ err: error, accountId }, 'rate limiter unavailable, request let through');
      options.onRedisFailure?.(error);
      setHeaders(res, limit, limit, 1);
      next();
      return;
    }
    answer(res, next, admission);
  }

  // Synchronous while the account's lease lasts: most requests never wait on a promise here.
  return function rateLimit(_req: Request, res: Response, next: NextFunction): Promise<void> | void {
    const { accountId } = callerOf(res);
    const admission = limiter.admitFromLease(accountId);
    if (admission === undefined) return admitAfterLease(accountId, res, next);
    answer(res, next, admission);
  };
}
