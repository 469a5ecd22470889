/**
 * The send-time check in `npm run bench`: POST /suppressions/check with 1,000 addresses per request
 * against the database's own limit, a bare pg pool running the same indexed `= ANY($2)` query for
 * the same addresses, with no HTTP at all; and the same check for a send of a named scope against
 * the check of no scope, in the same rounds.
 */
import { performance } from 'node:perf_hooks';
import { createSuppressionClient } from '../../src/client/suppression-client.js';
import { checkLoad, loadWindow, type ApiBench } from './api-blocks.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { ADDRESSES_PER_CHECK, bareChecks, loadChecks, checkRequests, checkSets, inTurns } from './check-load.js';
import { combineLoads, type LoadResult, type LoadWindow } from './http-load.js';
import { seededEmail } from './seed.js';

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

/** Addresses checked per second through the service and straight on the database, in alternating rounds. */
export async function measureCheck(bench: ApiBench, deadline: Deadline): Promise<CheckFigures> {
  const { sizes } = bench;
  const sets = checkSets(bench);
  const unscoped = checkRequests(bench, sets);
  const scoped = checkRequests(bench, sets, BENCH_SCOPE);
  const bare = (window: LoadWindow) => bareChecks(bench, sets, sizes.checkConnections, window);
  if (sizes.warmupS > 0) {
    const warmup = { durationS: sizes.warmupS };
    await beforeDeadline(deadline, bare(warmup));
    await beforeDeadline(deadline, loadChecks(bench, bench.service.url, warmup, unscoped));
    await beforeDeadline(deadline, loadChecks(bench, bench.service.url, warmup, scoped));
  }
  const rounds = Math.max(1, sizes.lookupRounds);
  const roundLoad = loadWindow(sizes, Math.max(1, Math.round(sizes.checkS / rounds)), sizes.checkConnections);
  const service: LoadResult[] = [];
  const scopedService: LoadResult[] = [];
  const baseline: number[] = [];
  const load = async (requests: typeof unscoped) =>
    checkLoad('check', await beforeDeadline(deadline, loadChecks(bench, bench.service.url, roundLoad, requests)));
  const steps = [
    async () => service.push(await load(unscoped)),
    async () => scopedService.push(await load(scoped)),
    async () => baseline.push((await beforeDeadline(deadline, bare(roundLoad))).addresses_per_s),
  ];
  await inTurns(rounds, steps);
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
