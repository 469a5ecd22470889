/**
 * The send-time check's load, shared by the blocks that measure it (the check, the check filter,
 * tracing): sets of 1,000 addresses, the requests that carry them to a service, and the same query
 * straight on a pg pool.
 */
import { performance } from 'node:perf_hooks';
import type { ApiBench } from './api-blocks.js';
import { cycle, parallelLoads, quantile, runLoad, type LoadResult, type LoadWindow } from './http-load.js';
import { seededEmail, seededRandom } from './seed.js';

export const ADDRESSES_PER_CHECK = 1000;
const CHECK_SETS = 200;

export interface CheckSet {
  key: number;
  accountId: string;
  emails: string[];
}

/** Sets of 1,000 addresses of one keyed account each, `share` of them on its list, in a fixed shuffle. */
export function checkSets(bench: ApiBench, share = 0.1): CheckSet[] {
  const { accounts, keyedAccounts, lookupRows } = bench.sizes;
  const perAccount = Math.floor(lookupRows / accounts);
  const random = seededRandom(Math.round(share * 100_000));
  return Array.from({ length: CHECK_SETS }, (_, set) => {
    const key = set % keyedAccounts;
    const suppressed = Math.min(Math.round(ADDRESSES_PER_CHECK * share), perAccount);
    const first = Math.floor(random() * Math.max(1, perAccount - suppressed));
    const emails = [
      ...Array.from({ length: suppressed }, (_, index) => seededEmail(key + accounts * (first + index))),
      ...Array.from(
        { length: ADDRESSES_PER_CHECK - suppressed },
        (_, index) => `clean${set}.${index}.${share}@example.org`,
      ),
    ];
    for (let index = emails.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [emails[index], emails[other]] = [emails[other] as string, emails[index] as string];
    }
    return { key, accountId: bench.accountIds[key] as string, emails };
  });
}

/**
 * A fixed request for each set, each encoded once by the load generator: a 30 KB body built anew
 * for every request would cost the generator, on the machine it shares, more than the check itself.
 */
export function checkRequests(bench: ApiBench, sets: readonly CheckSet[], scope?: string) {
  return sets.map((set) => ({
    path: '/suppressions/check',
    headers: { authorization: `Bearer ${bench.tokens[set.key] as string}` },
    body: JSON.stringify(scope === undefined ? { emails: set.emails } : { emails: set.emails, scope }),
  }));
}

/**
 * The check's requests on a service, `checkConnections` at a time, for the window. The connections
 * go through the same sets, each from its own place in them, as the bare queries go through one
 * cycle: given the same list from its start, the connections would send the same set at the same
 * moments, and a service that asks once about an address several requests want together would be
 * measured on a tenth of the work.
 */
export function loadChecks(
  bench: ApiBench,
  url: string,
  window: LoadWindow,
  requests: ReturnType<typeof checkRequests>,
): Promise<LoadResult> {
  return loadChecksOn(bench, [url], window, requests);
}

/**
 * The same load on several processes of the service at once, its connections shared out among them:
 * API processes behind one address, as a platform runs one per core. Their rates add up. Each
 * connection is a load of its own, its list of requests turned to start at its own place, so that
 * the load generator encodes each request once: a request made up as it is sent costs the generator
 * a copy of its 30 KB body each time, on the machine it shares with the service.
 */
export async function loadChecksOn(
  bench: ApiBench,
  urls: readonly string[],
  window: LoadWindow,
  requests: ReturnType<typeof checkRequests>,
): Promise<LoadResult> {
  const perUrl = Math.max(1, Math.floor(bench.sizes.checkConnections / urls.length));
  const connections = urls.length * perUrl;
  const share = 'amount' in window ? { amount: Math.max(1, Math.ceil(window.amount / connections)) } : window;
  const results = await Promise.all(
    urls.flatMap((url, at) =>
      Array.from({ length: perUrl }, (_, index) => {
        const start = Math.floor(((at * perUrl + index) * requests.length) / connections);
        return runLoad({
          url,
          connections: 1,
          ...share,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [...requests.slice(start), ...requests.slice(0, start)],
        });
      }),
    ),
  );
  return parallelLoads(results);
}

export interface BareChecks {
  addresses_per_s: number;
  p99_ms: number;
}

/**
 * The same query as the check's straight on the bench's pg pool, `connections` at a time, for the
 * window's seconds or its number of checks: addresses per second, and p99 per check.
 */
export async function bareChecks(
  bench: ApiBench,
  sets: readonly CheckSet[],
  connections: number,
  window: LoadWindow,
): Promise<BareChecks> {
  const next = cycle(sets);
  const startedAt = performance.now();
  let left = 'amount' in window ? window.amount : Number.POSITIVE_INFINITY;
  const more = () => ('amount' in window ? left-- > 0 : performance.now() < startedAt + window.durationS * 1000);
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (more()) {
        const set = next();
        const t = performance.now();
        await bench.db.pool.query({
          name: 'bench-check-baseline',
          text: 'SELECT id, account_id, email, origin, source_id, created_at FROM suppressions WHERE account_id = $1 AND email = ANY($2::text[])',
          values: [set.accountId, set.emails],
        });
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    addresses_per_s: Math.round((times.length * ADDRESSES_PER_CHECK) / seconds),
    p99_ms: Math.round(quantile(times, 0.99) * 100) / 100,
  };
}

/** Runs the steps `rounds` times, each round in another order, so that none is always the first after a pause. */
export async function inTurns(rounds: number, steps: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    for (let step = 0; step < steps.length; step += 1)
      await (steps[(round + step) % steps.length] as () => Promise<unknown>)();
  }
}
