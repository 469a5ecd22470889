/**
 * The check filter in `npm run bench:check`: in the same rounds, the check through the service with
 * its filter and entry cache, through two processes of it (one per core here, the load shared out
 * between them), through a twin service whose filter keeps no entries
 * (CHECK_CACHE_ENTRIES=0), through another with CHECK_FILTER=off, and the bare indexed query on a pg
 * pool, with 10 % and 2 % of the checked addresses on the list; and GET /suppressions/{email} of a
 * present and of an absent address with and without the filter. Also the filter's memory, and the
 * share of found entries the cache answered, read from /metrics.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiBench } from './api-blocks.js';
import { checkLoad, loadWindow } from './api-blocks.js';
import type { ChildServer } from './child-server.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import {
  ADDRESSES_PER_CHECK,
  bareChecks,
  loadChecks,
  loadChecksOn,
  checkRequests,
  checkSets,
  inTurns,
  type BareChecks,
} from './check-load.js';
import { combineLoads, cycle, runLoad, type LoadResult, type LoadWindow } from './http-load.js';
import { seededEmail, seededRandom } from './seed.js';

type Side = BareChecks;

export interface FilterCheckFigures {
  /** The share of each check's addresses that are on the list. */
  suppressed_share: number;
  filtered: Side;
  /** The same service as two processes (one per core here), the load shared between them. */
  pair: Side;
  /** With the filter, keeping no entries. */
  uncached: Side;
  unfiltered: Side;
  bare: Side;
  /** Filtered over bare, pair over bare, uncached over bare, and unfiltered over bare: addresses per second. */
  ratio: number;
  pair_ratio: number;
  uncached_ratio: number;
  unfiltered_ratio: number;
  /** Of the entries the filtered service's checks found in the measured rounds, the share its cache answered. */
  cached_share: number;
}

/** The twin services the filter is compared with. */
export interface FilterTwins {
  /** CHECK_FILTER=off. */
  unfiltered: ChildServer;
  /** CHECK_CACHE_ENTRIES=0. */
  uncached: ChildServer;
  /** A second process of the service itself, with the same settings. */
  second: ChildServer;
}

export interface FilterLookupFigures {
  address: 'present' | 'absent';
  filtered: { rps: number; p99_ms: number };
  unfiltered: { rps: number; p99_ms: number };
}

export interface FilterFigures {
  checks: FilterCheckFigures[];
  lookups: FilterLookupFigures[];
  /** The filtered service's filter as /metrics shows it once built. */
  entries: number;
  bytes: number;
  bytes_per_entry: number;
  /** Seconds the bench waited, once the services listened, for the filter to be built. */
  ready_after_s: number;
}

/** A server's /metrics, as text. */
async function metricsOf(server: ChildServer): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** The value of a series (`name`, or `name{label="value"}`) in /metrics text, or undefined when it has none. */
function valueIn(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A sample of a server's /metrics by its series as exposed, or undefined when it has none. */
async function sample(server: ChildServer, series: string): Promise<number | undefined> {
  return valueIn(await metricsOf(server), series);
}

/** The "maybe" addresses the service's filter answered from its cache, and those the database found: one scrape. */
async function foundAnswers(server: ChildServer): Promise<{ cached: number; confirmed: number }> {
  const metrics = await metricsOf(server);
  const count = (answer: string) => valueIn(metrics, `suppression_filter_answers_total{answer="${answer}"}`) ?? 0;
  return { cached: count('cached'), confirmed: count('confirmed') };
}

/** Waits until the service's filter is built; resolves with how long that took from now. */
export async function filterReady(server: ChildServer, deadline: Deadline): Promise<number> {
  const startedAt = performance.now();
  const poll = async (): Promise<void> => {
    while ((await sample(server, 'suppression_filter_ready')) !== 1) await sleep(100);
  };
  await beforeDeadline(deadline, poll());
  return (performance.now() - startedAt) / 1000;
}

const sideOf = (loads: LoadResult[]): Side => {
  const load = combineLoads(loads);
  return { addresses_per_s: Math.round(load.okPerSecond * ADDRESSES_PER_CHECK), p99_ms: load.p99Ms };
};

/** The three sides of the check in alternating rounds, for one share of suppressed addresses. */
async function measureShare(
  bench: ApiBench,
  twins: FilterTwins,
  share: number,
  deadline: Deadline,
): Promise<FilterCheckFigures> {
  const { sizes } = bench;
  const sets = checkSets(bench, share);
  const requests = checkRequests(bench, sets);
  const bare = (window: LoadWindow) => bareChecks(bench, sets, sizes.checkConnections, window);
  if (sizes.warmupS > 0) {
    const warmup = { durationS: sizes.warmupS };
    await beforeDeadline(deadline, bare(warmup));
    for (const server of [bench.service, twins.second, twins.uncached, twins.unfiltered])
      await beforeDeadline(deadline, loadChecks(bench, server.url, warmup, requests));
  }
  const rounds = Math.max(1, sizes.lookupRounds);
  const window = loadWindow(sizes, Math.max(1, Math.round(sizes.checkS / rounds)), sizes.checkConnections);
  const filteredLoads: LoadResult[] = [];
  const pairLoads: LoadResult[] = [];
  const uncachedLoads: LoadResult[] = [];
  const unfilteredLoads: LoadResult[] = [];
  const bareSides: Side[] = [];
  const load = async (what: string, url: string) =>
    checkLoad(what, await beforeDeadline(deadline, loadChecks(bench, url, window, requests)));
  const before = await foundAnswers(bench.service);
  await inTurns(rounds, [
    async () => filteredLoads.push(await load('filtered check', bench.service.url)),
    async () =>
      pairLoads.push(
        checkLoad(
          'check on two processes',
          await beforeDeadline(deadline, loadChecksOn(bench, [bench.service.url, twins.second.url], window, requests)),
        ),
      ),
    async () => uncachedLoads.push(await load('uncached check', twins.uncached.url)),
    async () => unfilteredLoads.push(await load('unfiltered check', twins.unfiltered.url)),
    async () => bareSides.push(await beforeDeadline(deadline, bare(window))),
  ]);
  const after = await foundAnswers(bench.service);
  const cached = after.cached - before.cached;
  const found = cached + after.confirmed - before.confirmed;
  const filtered = sideOf(filteredLoads);
  const pair = sideOf(pairLoads);
  const uncached = sideOf(uncachedLoads);
  const plain = sideOf(unfilteredLoads);
  const bareSide = {
    addresses_per_s: Math.round(bareSides.reduce((sum, side) => sum + side.addresses_per_s, 0) / bareSides.length),
    p99_ms: Math.max(...bareSides.map((side) => side.p99_ms)),
  };
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  return {
    suppressed_share: share,
    filtered,
    pair,
    uncached,
    unfiltered: plain,
    bare: bareSide,
    ratio: round3(filtered.addresses_per_s / bareSide.addresses_per_s),
    pair_ratio: round3(pair.addresses_per_s / bareSide.addresses_per_s),
    uncached_ratio: round3(uncached.addresses_per_s / bareSide.addresses_per_s),
    unfiltered_ratio: round3(plain.addresses_per_s / bareSide.addresses_per_s),
    cached_share: found === 0 ? 0 : round3(cached / found),
  };
}

/** GET /suppressions/{email} of entries (present) or of addresses on no list (absent), on both services in turns. */
async function measureLookups(
  bench: ApiBench,
  unfiltered: ChildServer,
  deadline: Deadline,
): Promise<FilterLookupFigures[]> {
  const { sizes } = bench;
  const perAccount = Math.floor(sizes.lookupRows / sizes.accounts);
  const random = seededRandom(777);
  const lookupsOf = (present: boolean) =>
    Array.from({ length: 200 }, (_, index) => {
      const key = Math.floor(random() * sizes.keyedAccounts);
      const email = present
        ? seededEmail(key + sizes.accounts * Math.floor(random() * perAccount))
        : `absent${index}@example.org`;
      return {
        path: `/suppressions/${encodeURIComponent(email)}`,
        headers: { authorization: `Bearer ${bench.tokens[key]}` },
      };
    });
  const figures: FilterLookupFigures[] = [];
  for (const address of ['present', 'absent'] as const) {
    const requests = lookupsOf(address === 'present');
    const load = (server: ChildServer, window: LoadWindow) =>
      runLoad({ url: server.url, connections: sizes.connections, ...window, next: cycle(requests) });
    const window = loadWindow(sizes, Math.max(1, Math.round(sizes.loadS / 6)), sizes.connections);
    const runs = { filtered: [] as LoadResult[], unfiltered: [] as LoadResult[] };
    for (const [name, server] of [
      ['filtered', bench.service],
      ['unfiltered', unfiltered],
      ['unfiltered', unfiltered],
      ['filtered', bench.service],
    ] as const) {
      const result = await beforeDeadline(deadline, load(server, window));
      const expected = address === 'present' ? result.okPerSecond : result.rps;
      if (result.requests === 0 || result.errors > 0 || expected === 0)
        throw new Error(
          `${address} lookup on the ${name} service: ${result.requests} requests, ${result.non2xx} not 2xx, ${result.errors} errors`,
        );
      runs[name].push(result);
    }
    const side = (loads: LoadResult[]) => {
      const combined = combineLoads(loads);
      return { rps: Math.round(combined.rps), p99_ms: combined.p99Ms };
    };
    figures.push({ address, filtered: side(runs.filtered), unfiltered: side(runs.unfiltered) });
  }
  return figures;
}

/** The check at 10 % and 2 % suppressed on the four sides, the lookups, and the filter's memory. */
export async function measureFilter(
  bench: ApiBench,
  twins: FilterTwins,
  readyAfterS: number,
  deadline: Deadline,
): Promise<FilterFigures> {
  const checks: FilterCheckFigures[] = [];
  for (const share of [0.1, 0.02]) checks.push(await measureShare(bench, twins, share, deadline));
  const lookups = await measureLookups(bench, twins.unfiltered, deadline);
  const entries = (await sample(bench.service, 'suppression_filter_entries')) ?? 0;
  const bytes = (await sample(bench.service, 'suppression_filter_bytes')) ?? 0;
  return {
    checks,
    lookups,
    entries,
    bytes,
    bytes_per_entry: entries === 0 ? 0 : Math.round((bytes / entries) * 1000) / 1000,
    ready_after_s: Math.round(readyAfterS * 10) / 10,
  };
}

/** The figures as rows of a markdown table. */
export function filterRows(figures: FilterFigures): string[][] {
  const rate = (side: Side) => `${side.addresses_per_s.toLocaleString('en-US')} /s, p99 ${side.p99_ms} ms`;
  return [
    ...figures.checks.map((check) => [
      `check, ${Math.round(check.suppressed_share * 100)} % suppressed`,
      `${rate(check.filtered)}; ${Math.round(check.cached_share * 1000) / 10} % of found from the cache`,
      rate(check.pair),
      rate(check.uncached),
      rate(check.unfiltered),
      rate(check.bare),
      `${check.ratio} (two processes: ${check.pair_ratio}; no cache: ${check.uncached_ratio}; off: ${check.unfiltered_ratio})`,
    ]),
    ...figures.lookups.map((lookup) => [
      `lookup of a ${lookup.address} address`,
      `${lookup.filtered.rps.toLocaleString('en-US')} /s, p99 ${lookup.filtered.p99_ms} ms`,
      '',
      '',
      `${lookup.unfiltered.rps.toLocaleString('en-US')} /s, p99 ${lookup.unfiltered.p99_ms} ms`,
      '',
      `${Math.round((lookup.filtered.rps / lookup.unfiltered.rps) * 1000) / 1000} of off`,
    ]),
    [
      'filter memory',
      `${figures.bytes.toLocaleString('en-US')} bytes for ${figures.entries.toLocaleString('en-US')} keys (${figures.bytes_per_entry} a key)`,
      '',
      '',
      '',
      '',
      `built ${figures.ready_after_s} s after start`,
    ],
  ];
}

export const FILTER_HEADER = [
  'figure',
  'filter and entry cache',
  'the same, two processes',
  'filter, CHECK_CACHE_ENTRIES=0',
  'CHECK_FILTER=off',
  'bare SQL',
  'filter ÷ bare',
];
