import { FeedUnavailableError, TIMESTAMP_TOLERANCE_SECONDS } from './feed-errors.js';
import type { RedisClient } from '../redis.js';

/** The Mailgun tokens a feed has taken, so a captured request cannot be sent again. */
export interface ReplayGuard {
  seen(feedId: string, token: string): Promise<boolean>;
  /** Called once the request's events are queued: a retry after a failure must still land. */
  remember(feedId: string, token: string): Promise<void>;
}

// A request is refused by its timestamp once it is more than 5 minutes off either way, so a token
// need only be remembered for the window in which its timestamp still passes.
const REMEMBER_SECONDS = 2 * TIMESTAMP_TOLERANCE_SECONDS + 60;

/** Tokens kept in Redis under `keyPrefix`, shared by every API process. */
export function redisReplayGuard(redis: RedisClient, keyPrefix: string): ReplayGuard {
  const key = (feedId: string, token: string) => `${keyPrefix}feed-token:${feedId}:${token}`;
  const unavailable = (error: unknown) => new FeedUnavailableError('Redis did not answer', { cause: error });
  return {
    async seen(feedId, token) {
      try {
        return (await redis.exists(key(feedId, token))) === 1;
      } catch (error) {
        throw unavailable(error);
      }
    },
    async remember(feedId, token) {
      try {
        await redis.set(key(feedId, token), '1', 'EX', REMEMBER_SECONDS);
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
