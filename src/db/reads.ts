import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis.js';
import type { Database } from './database.js';
import type { ReadReplicas } from './read-replicas.js';
import { createRecentWrites } from './recent-writes.js';
import { REPLICA_POLL_INTERVAL_MS } from './replica-lag.js';

/** Why a read that could have gone to a replica went to the primary. */
export type PrimaryReason = 'recent_write' | 'marks_unavailable' | 'no_usable_replica' | 'replica_failed';

/** Where a read was served, as the metrics count it. */
export type ReadServed = { target: 'replica'; replica: string } | { target: 'primary'; reason: PrimaryReason };

/** Which of some accounts may read from a replica now. */
export interface ReadRoute {
  replica: ReadonlySet<string>;
  /** Why the others read from the primary. */
  primaryReason: PrimaryReason;
}

/**
 * Where the reads that tolerate a replica's bounded lag go (lookups, checks, the list and its
 * searches, the export), and the marks that keep an account's own writes visible to it. Everything
 * else reads and writes the primary directly.
 */
export interface Reads {
  /** Whether replicas are configured: without them every read is the primary's, and nothing here costs a thing. */
  readonly replicated: boolean;
  /** Splits accounts into those that may read from a replica now and the others: one Redis round trip at most. */
  route(accountIds: readonly string[]): Promise<ReadRoute>;
  /** Runs `work` on a replica that may be read from, else on the primary; a replica's failure runs it again on the primary. */
  onReplica<T>(work: (db: Database) => Promise<T>): Promise<T>;
  onPrimary<T>(work: (db: Database) => Promise<T>, reason: PrimaryReason): Promise<T>;
  /** One account's read: on a replica unless it may not see the account's own writes. */
  forAccount<T>(accountId: string, work: (db: Database) => Promise<T>): Promise<T>;
  /** Says the account has just written: its reads go to the primary until every replica read from has the write. */
  wrote(accountId: string): Promise<void>;
}

export interface ReadsOptions {
  primary: Database;
  replicas?: ReadReplicas | undefined;
  /** Where the marks of recent writes are shared between processes; without it, this process's only. */
  redis?: RedisClient | undefined;
  keyPrefix: string;
  logger: Logger;
  onRead?: ((served: ReadServed) => void) | undefined;
}

/**
 * A mark outlives the bound by a poll and a margin: a replica read from after the mark is gone has
 * been measured no further behind than the bound, so it holds every write made before the mark.
 */
const MARK_MARGIN_MS = 500;

const NONE: ReadonlySet<string> = new Set();

/** Every read on the primary, as before replicas. */
function primaryOnly(primary: Database): Reads {
  return {
    replicated: false,
    route: () => Promise.resolve({ replica: NONE, primaryReason: 'no_usable_replica' }),
    onReplica: (work) => work(primary),
    onPrimary: (work) => work(primary),
    forAccount: (_accountId, work) => work(primary),
    wrote: () => Promise.resolve(),
  };
}

export function createReads(options: ReadsOptions): Reads {
  const { primary, replicas, logger } = options;
  if (replicas === undefined || replicas.replicas.length === 0) return primaryOnly(primary);
  const count = options.onRead ?? (() => undefined);
  const marks = createRecentWrites({
    redis: options.redis,
    keyPrefix: options.keyPrefix,
    ttlMs: replicas.maxLagMs + REPLICA_POLL_INTERVAL_MS + MARK_MARGIN_MS,
    logger,
  });

  const onPrimary = async <T>(work: (db: Database) => Promise<T>, reason: PrimaryReason): Promise<T> => {
    const result = await work(primary);
    count({ target: 'primary', reason });
    return result;
  };

  const onReplica = async <T>(work: (db: Database) => Promise<T>): Promise<T> => {
    const replica = replicas.pick();
    if (replica === undefined) return onPrimary(work, 'no_usable_replica');
    let result: T;
    try {
      result = await work(replica.db);
    } catch (error) {
      // A replica that went away, or a query it cancelled to replay WAL: the primary answers instead.
      logger.debug({ err: error, replica: replica.name }, 'read on a replica failed; reading from the primary');
      return onPrimary(work, 'replica_failed');
    }
    count({ target: 'replica', replica: replica.name });
    return result;
  };

  const route = async (accountIds: readonly string[]): Promise<ReadRoute> => {
    // No replica to read from: nothing to ask Redis about.
    if (!replicas.anyUsable()) return { replica: NONE, primaryReason: 'no_usable_replica' };
    const distinct = [...new Set(accountIds)];
    const marked = await marks.marked(distinct);
    if (marked === undefined) return { replica: NONE, primaryReason: 'marks_unavailable' };
    return { replica: new Set(distinct.filter((id) => !marked.has(id))), primaryReason: 'recent_write' };
  };

  return {
    replicated: true,
    route,
    onReplica,
    onPrimary,
    async forAccount(accountId, work) {
      const { replica, primaryReason } = await route([accountId]);
      return replica.has(accountId) ? onReplica(work) : onPrimary(work, primaryReason);
    },
    wrote: (accountId) => marks.mark(accountId),
  };
}
