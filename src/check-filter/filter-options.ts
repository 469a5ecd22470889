import type { Queryable } from '../db/database.js';
import type { CacheTicket, CachedEntry } from './entry-cache.js';
import type { FilterStatus } from '../filter-gauges.js';
import type { Logger } from '../logger.js';
import { CHANGE_RETENTION } from './change-retention.js';
import { REBUILD_BOUNDS, type RebuildBounds, type RebuildReason } from './key-filter.js';

/** Why a check or a lookup asked the database about every address instead of the filter. */
export type FallbackReason = 'building' | 'tail_failed' | 'tail_slow';

/** Why the filter was built: the process started, it grew stale, or what it knew of the server no longer holds. */
export type BuildReason = 'start' | RebuildReason | 'server_restart' | 'fell_behind';

export interface AnswerCounts {
  /** Addresses the filter answered "certainly not on the list". */
  absent: number;
  /** "Maybe" addresses the database found an entry for, and those it did not. */
  confirmed: number;
  unconfirmed: number;
  /** "Maybe" addresses answered from the entry cache, with no query: with the entry kept... */
  cached?: number;
  /** ...and as kept having none (a false positive of the filter, or a stale bit, met before). */
  cachedAbsent?: number;
}

/** Where the filter counts what it does (the process's metrics). */
export interface CheckFilterCounters {
  fallback(reason: FallbackReason): void;
  built(reason: BuildReason): void;
  /** Keys and removals applied from the changes. */
  applied(changes: number): void;
  /** A round of changes began: one statement on the primary, more past a page of changes. */
  round(): void;
  answered(counts: AnswerCounts): void;
}

/** The filter's pace and bounds: what tests vary, and operators have no reason to. */
export interface CheckFilterTuning {
  /** With no check waiting, a round runs this often, to stay current and see a server's restart. */
  idleRoundMs: number;
  /** A check waits this long for its round, then asks the database. */
  waitMs: number;
  /** After a failed round, checks ask the database for this long before a round is tried again. */
  retryMs: number;
  /** After a failed build, the next one starts this much later. */
  buildRetryMs: number;
  pruneEveryMs: number;
  retention: string;
  /** A filter grown stale is built again at most this often. */
  minRebuildIntervalMs: number;
  bounds: RebuildBounds;
}

export const CHECK_FILTER_TUNING: CheckFilterTuning = {
  idleRoundMs: 1000,
  waitMs: 1000,
  retryMs: 500,
  buildRetryMs: 5000,
  pruneEveryMs: 60_000,
  retention: CHANGE_RETENTION,
  minRebuildIntervalMs: 600_000,
  bounds: REBUILD_BOUNDS,
};

export interface CheckFilterOptions {
  /** The primary's URL: the filter follows the primary, never a replica. */
  url: string;
  applicationName: string;
  statementTimeoutMs: number;
  connectTimeoutMs?: number;
  /** The primary's pool: the retention, and how far behind the filter is at a scrape. */
  db: Queryable;
  logger: Logger;
  counters?: Partial<CheckFilterCounters>;
  tuning?: Partial<CheckFilterTuning>;
  /** Entries the check found that are kept to answer it again without a query (`EntryCache`); 0 keeps none. */
  cacheEntries?: number;
}

export interface CheckFilter {
  /**
   * For each address, whether any of its keys in these stored scopes may be on the list, as of a
   * round of changes that began after this call: never older. Undefined when the filter cannot
   * show that now (counted by reason); the caller then asks the database about every address.
   */
  screen(accountId: string, scopes: readonly string[], emails: readonly string[]): Promise<boolean[] | undefined>;
  /**
   * The same, in two steps: `early`, what the filter may hold now (undefined when it cannot say),
   * whose addresses the caller may ask the database about at once; then `settled()`, which starts
   * the round and answers as `screen` does, never without an address `early` named. A caller that
   * asks the database about every address at once needs no round: a "maybe" stays one. `heads`,
   * the addresses' hashes (`hashEach`), when the caller has them already.
   */
  screenEarly(
    accountId: string,
    scopes: readonly string[],
    emails: readonly string[],
    heads?: Uint16Array,
  ): { early: boolean[] | undefined; settled: () => Promise<boolean[] | undefined> };
  /** What the database made of the addresses of a screen. */
  answered(counts: AnswerCounts): void;
  /**
   * Taken before the database is asked about a check's addresses, to `keep` what it finds;
   * undefined while the filter is not built, when nothing it finds may be kept.
   */
  cacheTicket(accountId: string): CacheTicket | undefined;
  /**
   * The entry kept for this address in this scope ('' for the whole account): the entry that stops a
   * send there, as of the filter's last round, or null when it is kept as having none. Asked only
   * about the "maybe" addresses of a `settled` screen, so as of a round that began after the check.
   */
  cached(accountId: string, scope: string, email: string): CachedEntry | null | undefined;
  /** Keeps what a read begun with `ticket` found for a "maybe" address: its entry, or null for none. */
  keep(ticket: CacheTicket, scope: string, email: string, entry: CachedEntry | null): void;
  status(): FilterStatus;
  /** Keys and removals committed that the filter has not read; undefined while it is built. */
  changesBehind(): Promise<number | undefined>;
  /** Resolves once the filter is built and current: for tests and benchmarks. */
  whenReady(): Promise<void>;
  close(): Promise<void>;
}
