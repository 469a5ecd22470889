/**
 * The send-time check in `npm run bench`: POST /suppressions/check with 1,000 addresses per request
 * against the database's own limit, a bare pg pool running the same indexed `= ANY($2)` query for
 * the same addresses, with no HTTP at all; and the same check for a send of a named scope against
 * the check of no scope, in the same rounds.
 */
import { performance } from 'node:perf_hooks';
import { createSuppressionClient } from '../../src/client/suppression-client.js';
import { loadWindow, type ApiBench } from './api-blocks.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { combineLoads, runLoad, type LoadResult, type LoadWindow } from './http-load.js';
import { seededEmail, seededRandom } from './seed.js';

export interface CheckFigures {
  addresses_per_s: number;
  baseline_addresses_per_s: number;
  ratio: number;
  /** The same checks for a send of a named scope: every address looked up in its scope and the whole account's. */
  scoped_addresses_per_s: number;
  /** Scoped over unscoped. */
  scoped_ratio: number;
}

/** The scope of the scoped checks: none of the seeded entries is in it, so each is found as the whole account's. */
const BENCH_SCOPE = 'newsletter';

const ADDRESSES_PER_CHECK = 1000;
const SUPPRESSED_PER_CHECK = 100;
const CHECK_SETS = 200;

interface CheckSet {
  key: number;
  accountId: string;
  emails: string[];
}

/** Sets of 1,000 addresses of one keyed account each, about 10 % of them on its list, in a fixed shuffle. */
export function checkSets(bench: ApiBench): CheckSet[] {
  const { accounts, keyedAccounts, lookupRows } = bench.sizes;
  const perAccount = Math.floor(lookupRows / accounts);
  const random = seededRandom(54321);
  return Array.from({ length: CHECK_SETS }, (_, set) => {
    const key = set % keyedAccounts;
    const suppressed = Math.min(SUPPRESSED_PER_CHECK, perAccount);
    const first = Math.floor(random() * Math.max(1, perAccount - suppressed));
    const emails = [
      ...Array.from({ length: suppressed }, (_, index) => seededEmail(key + accounts * (first + index))),
      ...Array.from({ length: ADDRESSES_PER_CHECK - suppressed }, (_, index) => `clean${set}.${index}@example.org`),
    ];
    for (let index = emails.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [emails[index], emails[other]] = [emails[other] as string, emails[index] as string];
    }
    return { key, accountId: bench.accountIds[key] as string, emails };
  });
}

function cycle<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length] as T;
}

/**
 * The same lookups straight on a pg pool of the service's size, `connections` at a time, for the
 * window's seconds or its number of checks.
 */
async function baselineChecks(bench: ApiBench, sets: CheckSet[], connections: number, window: LoadWindow) {
  const next = cycle(sets);
  const startedAt = performance.now();
  const more =
    'amount' in window
      ? (() => {
          let left = window.amount;
          return () => left-- > 0;
        })()
      : () => performance.now() < startedAt + window.durationS * 1000;
  let checks = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (more()) {
        const set = next();
        await bench.db.pool.query({
          name: 'bench-check-baseline',
          text: 'SELECT id, account_id, email, origin, source_id, created_at FROM suppressions WHERE account_id = $1 AND email = ANY($2::text[])',
          values: [set.accountId, set.emails],
        });
        checks += 1;
      }
    }),
  );
  return (checks * ADDRESSES_PER_CHECK) / ((performance.now() - startedAt) / 1000);
}

function checkLoad(result: LoadResult): LoadResult {
  if (result.requests === 0 || result.non2xx > 0 || result.errors > 0) {
    throw new Error(`check: ${result.requests} requests, ${result.non2xx} not 2xx, ${result.errors} errors`);
  }
  return result;
}

/** Addresses checked per second through the service and straight on the database, in alternating rounds. */
export async function measureCheck(bench: ApiBench, deadline: Deadline): Promise<CheckFigures> {
  const { sizes } = bench;
  const sets = checkSets(bench);
  // A fixed set of requests, each encoded once by the load generator: a 30 KB body built anew for
  // every request would cost the generator, on the machine it shares, more than the check itself.
  const requestsOf = (scope?: string) =>
    sets.map((set) => ({
      path: '/suppressions/check',
      headers: { authorization: `Bearer ${bench.tokens[set.key] as string}` },
      body: JSON.stringify(scope === undefined ? { emails: set.emails } : { emails: set.emails, scope }),
    }));
  const unscoped = requestsOf();
  const scoped = requestsOf(BENCH_SCOPE);
  const serviceLoad = (window: LoadWindow, requests: typeof unscoped) =>
    runLoad({
      url: bench.service.url,
      connections: sizes.checkConnections,
      ...window,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests,
    });
  if (sizes.warmupS > 0) {
    const warmup = { durationS: sizes.warmupS };
    await beforeDeadline(deadline, baselineChecks(bench, sets, sizes.checkConnections, warmup));
    await beforeDeadline(deadline, serviceLoad(warmup, unscoped));
    await beforeDeadline(deadline, serviceLoad(warmup, scoped));
  }
  const rounds = Math.max(1, sizes.lookupRounds);
  const roundLoad = loadWindow(sizes, Math.max(1, Math.round(sizes.checkS / rounds)), sizes.checkConnections);
  const service: LoadResult[] = [];
  const scopedService: LoadResult[] = [];
  const baseline: number[] = [];
  const steps = [
    async () => service.push(checkLoad(await beforeDeadline(deadline, serviceLoad(roundLoad, unscoped)))),
    async () => scopedService.push(checkLoad(await beforeDeadline(deadline, serviceLoad(roundLoad, scoped)))),
    async () =>
      baseline.push(await beforeDeadline(deadline, baselineChecks(bench, sets, sizes.checkConnections, roundLoad))),
  ];
  // Each round runs the three in another order, so that none is always the first after a pause.
  for (let round = 0; round < rounds; round += 1) {
    for (let step = 0; step < steps.length; step += 1)
      await (steps[(round + step) % steps.length] as () => Promise<unknown>)();
  }
  const addressesPerSecond = combineLoads(service).okPerSecond * ADDRESSES_PER_CHECK;
  const scopedPerSecond = combineLoads(scopedService).okPerSecond * ADDRESSES_PER_CHECK;
  const baselinePerSecond = baseline.reduce((sum, value) => sum + value, 0) / baseline.length;
  return {
    addresses_per_s: Math.round(addressesPerSecond),
    baseline_addresses_per_s: Math.round(baselinePerSecond),
    ratio: Math.round((addressesPerSecond / baselinePerSecond) * 1000) / 1000,
    scoped_addresses_per_s: Math.round(scopedPerSecond),
    scoped_ratio: Math.round((scopedPerSecond / addressesPerSecond) * 1000) / 1000,
  };
}

export interface ClientFigures {
  addresses: number;
  addresses_per_s: number;
}

/**
 * `filterSendable` of the exported client over `addresses` addresses of one account (about 10 % on
 * its list, as far as the seed has them): the client's own splitting, parallel requests and merging
 * included.
 */
export async function measureClient(bench: ApiBench, addresses: number, deadline: Deadline): Promise<ClientFigures> {
  const { accounts, lookupRows } = bench.sizes;
  const perAccount = Math.floor(lookupRows / accounts);
  const suppressed = Math.min(Math.floor(addresses / 10), perAccount);
  const emails = Array.from({ length: addresses }, (_, index) =>
    index % 10 === 0 && index / 10 < suppressed ? seededEmail(accounts * (index / 10)) : `client${index}@example.net`,
  );
  const client = createSuppressionClient({
    baseUrl: bench.service.url,
    apiKey: bench.tokens[0] as string,
    timeoutMs: 60_000,
  });
  const startedAt = performance.now();
  const result = await beforeDeadline(deadline, client.filterSendable(emails));
  const seconds = (performance.now() - startedAt) / 1000;
  if (result.suppressed.length !== suppressed || result.sendable.length !== addresses - suppressed) {
    throw new Error(
      `client: ${result.suppressed.length} suppressed and ${result.sendable.length} sendable of ${addresses}`,
    );
  }
  return { addresses, addresses_per_s: Math.round(addresses / seconds) };
}
