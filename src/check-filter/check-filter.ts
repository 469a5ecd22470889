import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { readRound, type KeyChange } from './change-rounds.js';
import { changesSince, pruneKeyChanges } from './change-retention.js';
import { sizedFilter, streamKeys } from './filter-build.js';
import {
  CHECK_FILTER_TUNING,
  type BuildReason,
  type CheckFilter,
  type CheckFilterOptions,
  type FallbackReason,
} from './filter-options.js';
import { EntryCache } from './entry-cache.js';
import type { KeyFilter } from './key-filter.js';
import { roundQueue } from './round-queue.js';
import type { Snapshot } from './snapshot.js';

export type { CheckFilter, CheckFilterOptions } from './filter-options.js';

interface Live {
  filter: KeyFilter;
  base: Snapshot;
  serverStart: string;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Starts the filter: it builds itself from the table at once, and answers nothing until then. */
export function startCheckFilter(options: CheckFilterOptions): CheckFilter {
  const tuning = { ...CHECK_FILTER_TUNING, ...options.tuning };
  const { logger } = options;
  const counters = options.counters ?? {};
  const connection = {
    connectionString: options.url,
    application_name: `${options.applicationName}:check-filter`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 1500,
  };
  let live: Live | undefined;
  /** A filter being built while `live` answers: it takes every change applied meanwhile. */
  let rebuilding: KeyFilter | undefined;
  let building = false;
  let buildAgain: BuildReason | undefined;
  let buildClient: pg.Client | undefined;
  let lastBuildAt = Number.NEGATIVE_INFINITY;
  let currentAt = performance.now();
  let lastRoundAt = Number.NEGATIVE_INFINITY;
  let failedUntil = 0;
  let closed = false;
  let tail: pg.Client | undefined;
  const ready = deferred();
  const cache = new EntryCache(options.cacheEntries ?? 0);

  /** Applies a change to the filters (and the one being built), and drops the cached answers it makes wrong. */
  const apply = (state: Live, change: KeyChange): void => {
    const filters = rebuilding ? [state.filter, rebuilding] : [state.filter];
    const { account_ids: accounts, emails, scopes, removed, allowlist_account_ids: allowlists } = change;
    if (allowlists) {
      for (const accountId of allowlists) cache.accountChanged(accountId);
      counters.applied?.(allowlists.length);
    } else if (removed > 0) {
      for (const filter of filters) filter.removed(removed);
      if (accounts && emails)
        for (let index = 0; index < accounts.length; index += 1)
          cache.changed(accounts[index] as string, emails[index] as string);
      else cache.clear();
      counters.applied?.(removed);
    } else if (accounts && emails && scopes) {
      for (let index = 0; index < accounts.length; index += 1) {
        const accountId = accounts[index] as string;
        const email = emails[index] as string;
        for (const filter of filters) filter.add(accountId, scopes[index] as string, email);
        // A key added in the whole account's scope may now be the entry a scope's check answers with.
        cache.changed(accountId, email);
      }
      counters.applied?.(accounts.length);
    }
  };

  const connectedTail = async (): Promise<pg.Client> => {
    if (tail) return tail;
    const client = new pg.Client({ ...connection, statement_timeout: options.statementTimeoutMs });
    client.on('error', (error) => {
      logger.debug({ err: error }, 'check filter: tail connection failed');
      if (tail === client) tail = undefined;
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    tail = client;
    return client;
  };

  const dropTail = (): void => {
    const client = tail;
    tail = undefined;
    void client?.end().catch(() => undefined);
  };

  /** Drops what the filter knows and builds it again; checks ask the database meanwhile. */
  const restart = (reason: BuildReason): void => {
    logger.warn({ reason }, 'check filter: building again; checks ask the database until it is built');
    live = undefined;
    rebuilding = undefined;
    cache.clear();
    startBuild(reason);
  };

  const round = async (): Promise<Live | undefined> => {
    const state = live;
    if (!state || closed) return undefined;
    const startedAt = performance.now();
    lastRoundAt = startedAt;
    counters.round?.();
    try {
      const head = await readRound(await connectedTail(), state.base, (change) => apply(state, change));
      if (live !== state) return undefined;
      // Another server, or one restarted: its transaction ids may not be the ones the snapshot names.
      const lost = head.serverStart !== state.serverStart ? 'server_restart' : undefined;
      // The retention deleted changes the filter had still to read.
      const behind = BigInt(head.prunedBelow) > BigInt(state.base.xmin) ? 'fell_behind' : undefined;
      if (lost ?? behind) {
        restart((lost ?? behind) as BuildReason);
        return undefined;
      }
      state.base = head.snapshot;
      currentAt = startedAt;
      ready.resolve();
      const reason = state.filter.rebuildReason(tuning.bounds);
      if (reason && !building && startedAt - lastBuildAt >= tuning.minRebuildIntervalMs) startBuild(reason);
      return state;
    } catch (error) {
      if (!closed) logger.warn({ err: error }, 'check filter: a round of changes failed; checks ask the database');
      dropTail();
      failedUntil = performance.now() + tuning.retryMs;
      return undefined;
    }
  };

  const rounds = roundQueue(round);

  /** Builds a filter from the table; false when the build failed. */
  const build = async (reason: BuildReason): Promise<boolean> => {
    const client = new pg.Client(connection);
    client.on('error', (error) => logger.debug({ err: error }, 'check filter: build connection failed'));
    buildClient = client;
    let filter: KeyFilter | undefined;
    try {
      await client.connect();
      filter = await sizedFilter(client);
      // Registered before the snapshot is taken: every change the rounds apply from now on goes to
      // it too, and everything they applied before is in the snapshot.
      const background = live !== undefined;
      if (background) rebuilding = filter;
      const built = await streamKeys(client, filter);
      if (closed) return true;
      if (background && live && rebuilding === filter) live.filter = filter;
      else if (!background && !live) live = { filter, base: built.snapshot, serverStart: built.serverStart };
      else return true;
      lastBuildAt = performance.now();
      counters.built?.(reason);
      logger.info({ reason, rows: built.rows, keys: filter.keys, bytes: filter.bytes }, 'check filter built');
      rounds.poke();
      return true;
    } catch (error) {
      if (closed) return true;
      logger.warn({ err: error, reason }, 'check filter: build failed; trying again');
      buildAgain ??= reason;
      return false;
    } finally {
      if (rebuilding === filter) rebuilding = undefined;
      buildClient = undefined;
      await client.end().catch(() => undefined);
    }
  };

  function startBuild(reason: BuildReason): void {
    if (closed) return;
    if (building) {
      buildAgain = reason;
      return;
    }
    building = true;
    void build(reason).then((ok) => {
      building = false;
      const again = buildAgain;
      buildAgain = undefined;
      if (again === undefined || closed) return;
      // A failed build waits; a restart seen during a background build starts at once.
      setTimeout(() => startBuild(again), ok ? 0 : tuning.buildRetryMs).unref();
    });
  }

  const idle = setInterval(() => {
    if (live && performance.now() - lastRoundAt >= tuning.idleRoundMs) rounds.poke();
  }, tuning.idleRoundMs);
  idle.unref();
  const prune = setInterval(() => {
    pruneKeyChanges(options.db, tuning.retention).catch((error: unknown) =>
      logger.warn({ err: error }, 'check filter: could not prune the key changes'),
    );
  }, tuning.pruneEveryMs);
  prune.unref();
  startBuild('start');

  const waitForRound = async (): Promise<Live | undefined | 'slow'> => {
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), tuning.waitMs)));
    try {
      return await Promise.race([rounds.fresh(), slow]);
    } finally {
      clearTimeout(timer);
    }
  };

  const fallBack = (reason: FallbackReason): undefined => {
    counters.fallback?.(reason);
    return undefined;
  };

  /** The filter as of a round that begins after this call, or undefined (counted) when it cannot show that. */
  const settle = async (): Promise<Live | undefined> => {
    if (closed || !live) return fallBack('building');
    if (performance.now() < failedUntil) return fallBack('tail_failed');
    const state = await waitForRound();
    if (state === 'slow') return fallBack('tail_slow');
    if (!state) return fallBack(live ? 'tail_failed' : 'building');
    return state;
  };

  return {
    screen: async (accountId, scopes, emails) => (await settle())?.filter.mayHold(accountId, scopes, emails),
    screenEarly(accountId, scopes, emails, heads) {
      const before = closed || performance.now() < failedUntil ? undefined : live?.filter;
      const keysBefore = before?.keys;
      const early = before?.mayHold(accountId, scopes, emails, heads);
      const settled = () =>
        settle().then((state) => {
          if (!state) return undefined;
          if (!early) return state.filter.mayHold(accountId, scopes, emails, heads);
          // Nothing was added since: the early answer is the round's.
          if (state.filter === before && state.filter.keys === keysBefore) return early;
          // A "maybe" stays one: the round can only have added some.
          const after = state.filter.mayHold(accountId, scopes, emails, heads);
          return early.map((may, index) => may || (after[index] as boolean));
        });
      return { early, settled };
    },
    answered(counts) {
      // A "maybe" the cache knows has no entry is as much the filter's false positive as one the database told.
      live?.filter.answered(counts.absent, counts.unconfirmed + (counts.cachedAbsent ?? 0));
      counters.answered?.(counts);
    },
    cacheTicket: (accountId) => (live && !closed ? cache.ticket(accountId) : undefined),
    cached: (accountId, scope, email) => cache.get(accountId, scope, email),
    keep: (ticket, scope, email, entry) => cache.keep(ticket, scope, email, entry),
    status() {
      const filter = live?.filter;
      return {
        ready: filter !== undefined,
        keys: filter?.keys ?? 0,
        bytes: (filter?.bytes ?? 0) + (rebuilding?.bytes ?? 0),
        estimatedFalsePositiveRate: filter?.estimatedFalsePositiveRate ?? 0,
        measuredFalsePositiveRate: filter?.measuredFalsePositiveRate ?? 0,
        lagSeconds: (performance.now() - currentAt) / 1000,
        cachedEntries: cache.size,
      };
    },
    changesBehind: async () => (live ? changesSince(options.db, live.base) : undefined),
    whenReady: () => ready.promise,
    async close() {
      closed = true;
      clearInterval(idle);
      clearInterval(prune);
      dropTail();
      await buildClient?.end().catch(() => undefined);
    },
  };
}
