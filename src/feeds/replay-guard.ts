import { FeedUnavailableError, TIMESTAMP_TOLERANCE_SECONDS } from './feed-errors.js';
import type { RedisClient } from '../redis.js';

/** The Mailgun tokens a feed has taken, so a captured request cannot be sent again. */
export interface ReplayGuard {
  /**
   * Takes the token for this request, in one step: true for the one request that took it, false
   * for every other that carries it, at the same time or later.
   */
  reserve(feedId: string, token: string): Promise<boolean>;
  /** Gives a reserved token back when its events were not queued, so the provider's retry lands. */
  release(feedId: string, token: string): Promise<void>;
}

// A request is refused by its timestamp once it is more than 5 minutes off either way, so a token
// need only be kept for the window in which its timestamp still passes.
const REMEMBER_SECONDS = 2 * TIMESTAMP_TOLERANCE_SECONDS + 60;

/** Tokens kept in Redis under `keyPrefix`, shared by every API process. */
export function redisReplayGuard(redis: RedisClient, keyPrefix: string): ReplayGuard {
  const key = (feedId: string, token: string) => `${keyPrefix}feed-token:${feedId}:${token}`;
  const unavailable = (error: unknown) => new FeedUnavailableError('Redis did not answer', { cause: error });
  return {
    async reserve(feedId, token) {
      try {
        // SET NX: checking and recording in two commands would let requests that arrive together all pass.
        return (await redis.set(key(feedId, token), '1', 'EX', REMEMBER_SECONDS, 'NX')) === 'OK';
      } catch (error) {
        throw unavailable(error);
      }
    },
    async release(feedId, token) {
      try {
        await redis.del(key(feedId, token));
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
