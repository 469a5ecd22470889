import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitExceededError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';

export interface ClientRateLimitOptions {
  /** A fail-fast ('request' role) client. */
  redis: Redis;
  logger: Logger;
  /** Requests per second per client address that are not authenticated from the key cache. */
  pointsPerSecond: number;
  /** Namespace of the counters in Redis. */
  keyPrefix?: string;
  onRedisFailure?: (error: unknown) => void;
  onRejected?: () => void;
}

/** Resolves when the request may go on, or rejects with 429 `rate_limit_exceeded`. */
export type ClientRateLimit = (req: Request, res: Response) => Promise<void>;

/**
 * A limit per client address (`req.ip`, which honours the app's `trust proxy` setting) on the
 * requests that cannot be authenticated from the key cache: those without a key, with a key that
 * is not valid, or with a key not looked up lately. They are limited before any database work, so
 * that a flood of made-up keys costs a Redis counter, not a lookup each. Like the account limit it
 * fails open: when Redis cannot be asked, the request goes on and the failure is reported.
 */
export function createClientRateLimit(options: ClientRateLimitOptions): ClientRateLimit {
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.keyPrefix ?? 'sl:'}ratelimit-client`,
    points: options.pointsPerSecond,
    duration: 1,
    rejectIfRedisNotReady: true,
  });

  return async function limitClient(req: Request, res: Response): Promise<void> {
    try {
      await limiter.consume(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    } catch (outcome: unknown) {
      if (outcome instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
        res.set('retry-after', String(retryAfter));
        options.onRejected?.();
        throw new RateLimitExceededError(retryAfter);
      }
      options.logger.warn({ err: outcome }, 'client rate limiter unavailable, request let through');
      options.onRedisFailure?.(outcome);
    }
  };
}
