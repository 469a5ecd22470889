import { performance } from 'node:perf_hooks';
import { Cluster } from 'ioredis';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis.js';
import { withTimeout } from '../with-timeout.js';

/**
 * The accounts that wrote in the last moments, whose reads must go to the primary: a replica may not
 * have replayed the write yet. Kept in this process's memory and in Redis, so that every API process
 * knows of a write any of them made.
 */
export interface RecentWrites {
  /** Marks the account for `ttlMs`; resolves once Redis has the mark, or has failed to take it. */
  mark(accountId: string): Promise<void>;
  /**
   * The accounts among these that wrote within `ttlMs`; undefined when Redis could not say, and then
   * every one of them is to be read from the primary.
   */
  marked(accountIds: readonly string[]): Promise<ReadonlySet<string> | undefined>;
}

/** Redis is asked for this long at most; past it the read goes to the primary. */
const REDIS_TIMEOUT_MS = 250;

/** The in-memory marks are swept of expired ones when there are more than this. */
const SWEEP_ABOVE = 10_000;

export interface RecentWritesOptions {
  /** Without it (a lone process, as in tests), the marks are this process's only. */
  redis?: RedisClient | undefined;
  keyPrefix: string;
  ttlMs: number;
  logger: Logger;
}

export function createRecentWrites({ redis, keyPrefix, ttlMs, logger }: RecentWritesOptions): RecentWrites {
  const local = new Map<string, number>();
  const keyOf = (accountId: string): string => `${keyPrefix}recent-write:${accountId}`;
  const markedHere = (accountId: string, now: number): boolean => (local.get(accountId) ?? 0) > now;

  // A cluster spreads the keys over slots, and MGET takes keys of one slot only: each is asked for
  // on its own there, all at once.
  const values = async (client: RedisClient, keys: string[]): Promise<(string | null)[]> =>
    client instanceof Cluster ? Promise.all(keys.map((key) => client.get(key))) : client.mget(keys);

  return {
    async mark(accountId) {
      const now = performance.now();
      local.set(accountId, now + ttlMs);
      if (local.size > SWEEP_ABOVE) {
        for (const [id, until] of local) if (until <= now) local.delete(id);
      }
      if (!redis) return;
      try {
        await withTimeout(redis.set(keyOf(accountId), '1', 'PX', ttlMs), REDIS_TIMEOUT_MS, 'Redis did not answer');
      } catch (error) {
        // The write is made; only another process's read of it may go to a replica in the next
        // second, and only if that process can reach Redis when this one could not.
        logger.warn({ err: error, account_id: accountId }, 'a recent write could not be marked in Redis');
      }
    },
    async marked(accountIds) {
      const now = performance.now();
      const found = new Set(accountIds.filter((id) => markedHere(id, now)));
      const unknown = accountIds.filter((id) => !found.has(id));
      if (!redis || unknown.length === 0) return found;
      try {
        const answers = await withTimeout(values(redis, unknown.map(keyOf)), REDIS_TIMEOUT_MS, 'Redis did not answer');
        unknown.forEach((id, index) => {
          if (answers[index] !== null) found.add(id);
        });
        return found;
      } catch {
        return undefined;
      }
    },
  };
}
