/**
 * `npm run bench:check -- --replica`: the lookup and the check against a private primary and a
 * streaming replica of it (started as the tests start theirs), with the reads each side served;
 * then, under a stream of lookups, the replica stopped (and started again) and its replay paused
 * behind a write made without the API, counting failed requests and answers staler than the bound.
 * How long each of those runs is a `ReplicaWindows`.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/domain/ids.js';
import type { Logger } from '../../src/logger.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { startReplicaCluster, type ReplicaCluster } from '../../test/support/replica-cluster.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { inPhase } from '../common/cleanup.js';
import { measureLookup, prepareApiBench, type ApiBench, type LookupFigures } from './api-blocks.js';
import type { ApiSizes } from './api-sizes.js';
import { measureCheck, type CheckFigures } from './check-measure.js';
import { readsServed, replicaStates, servedBetween, type ReadsServed } from './replica-reads.js';
import { lookup, lookupStream, type Window } from './lookup-stream.js';

export interface StopFigures {
  requests: number;
  failed: number;
  /** From the stop command to /ready showing the replica down. */
  shown_down_ms: number;
  /** Reads the replica served after /ready showed it down, to the end of the `afterDown` window. */
  replica_reads_after: number;
  /** Reads that failed on the stopping replica and were answered by the primary instead. */
  retried_on_primary: number;
  /** From the start command to the replica being read from again. */
  back_in_use_ms: number;
}

export interface PauseFigures {
  requests: number;
  failed: number;
  /** Lookups of the new entry answered 404 by the replica: all before the bound. */
  stale_within_bound: number;
  stale_past_bound: number;
  /** From the write to the first lookup the primary answered. */
  primary_after_ms: number;
}

export interface ReplicaRunFigures {
  max_lag_ms: number;
  lookup: LookupFigures;
  lookup_served: ReadsServed;
  check: CheckFigures;
  check_served: ReadsServed;
  stop: StopFigures;
  pause: PauseFigures;
}

export interface ReplicaWindows {
  /** The stream of lookups under way before the replica is stopped. */
  beforeStop: Window;
  /** The stream after /ready shows the stopped replica down: none of it may be the replica's. */
  afterDown: Window;
  /** The stream under way before the replay is paused. */
  beforePause: Window;
  /** Lookups of the entry written behind the paused replay, past the bound: none may be stale. */
  pastBound: Window;
}

/** `npm run bench:check -- --replica`'s: seconds of lookups at each step. */
export const REPLICA_WINDOWS: ReplicaWindows = {
  beforeStop: { ms: 2000, requests: 0 },
  afterDown: { ms: 2000, requests: 0 },
  beforePause: { ms: 1000, requests: 0 },
  pastBound: { ms: 1500, requests: 0 },
};

/** Milliseconds until the service's /ready shows its replica in `state`. */
async function untilShown(serviceUrl: string, state: string, timeoutMs = 60_000): Promise<number> {
  const startedAt = performance.now();
  while ((await replicaStates(serviceUrl))[0]?.state !== state) {
    if (performance.now() - startedAt > timeoutMs) throw new Error(`the replica was not shown ${state} in time`);
    await sleep(10);
  }
  return performance.now() - startedAt;
}

export async function measureReplicaStop(
  bench: ApiBench,
  cluster: ReplicaCluster,
  windows: ReplicaWindows,
): Promise<StopFigures> {
  const url = bench.service.url;
  const stream = lookupStream(bench, 8);
  await stream.run(windows.beforeStop);
  const before = await readsServed(url);
  const stopping = cluster.stopReplica();
  // Its failure is reported once awaited, below, rather than as an unhandled rejection meanwhile.
  stopping.catch(() => undefined);
  const shownDownMs = await untilShown(url, 'down');
  const atDown = await readsServed(url);
  await stream.run(windows.afterDown);
  const after = await readsServed(url);
  const counts = await stream.stop();
  await stopping;
  const startedAt = performance.now();
  await cluster.startReplica();
  await untilShown(url, 'ok');
  return {
    ...counts,
    shown_down_ms: Math.round(shownDownMs),
    replica_reads_after: after.replica - atDown.replica,
    retried_on_primary: servedBetween(before, after).primaryBy['replica_failed'] ?? 0,
    back_in_use_ms: Math.round(performance.now() - startedAt),
  };
}

export async function measureReplayPause(
  bench: ApiBench,
  cluster: ReplicaCluster,
  maxLagMs: number,
  windows: ReplicaWindows,
): Promise<PauseFigures> {
  const url = bench.service.url;
  await cluster.caughtUp();
  await untilShown(url, 'ok');
  const stream = lookupStream(bench, 6);
  await stream.run(windows.beforePause);
  await cluster.pauseReplay();
  const probe = { token: bench.tokens[0] as string, email: `paused-replay-${Date.now()}@bench.example` };
  const answers: { at: number; status: number }[] = [];
  try {
    // Not through the API: no mark sends the account's reads to the primary; only the lag does.
    const entry = { id: newId(), email: probe.email, origin: 'manual' as const, sourceId: null };
    await addSuppressions(bench.db, bench.accountIds[0] as string, [entry]);
    const written = performance.now();
    const { ms, requests } = windows.pastBound;
    const pastBound = () => answers.filter((answer) => answer.at >= maxLagMs).length;
    while (performance.now() < written + maxLagMs + ms || pastBound() < requests) {
      const at = performance.now() - written;
      answers.push({ at, status: await lookup(url, probe) });
      await sleep(10);
    }
  } finally {
    await cluster.resumeReplay();
  }
  const counts = await stream.stop();
  const stale = answers.filter((answer) => answer.status === 404);
  const fromPrimary = answers.find((answer) => answer.status === 200);
  return {
    requests: counts.requests + answers.length,
    failed: counts.failed + answers.filter((answer) => answer.status !== 200 && answer.status !== 404).length,
    stale_within_bound: stale.filter((answer) => answer.at < maxLagMs).length,
    stale_past_bound: stale.filter((answer) => answer.at >= maxLagMs).length,
    primary_after_ms: fromPrimary === undefined ? Number.NaN : Math.round(fromPrimary.at),
  };
}

/** The whole run on a primary and a replica of its own, removed at the end; Redis and the rest from `env`. */
export async function runReplicaBench(
  env: NodeJS.ProcessEnv,
  sizes: ApiSizes,
  logger: Logger,
  deadline: Deadline,
  progress: (message: string) => void,
  windows: ReplicaWindows = REPLICA_WINDOWS,
): Promise<ReplicaRunFigures> {
  return inPhase('replica', logger, async (cleanup) => {
    progress('starting a private primary and a streaming replica of it (initdb, pg_basebackup -R)');
    const cluster = await beforeDeadline(deadline, startReplicaCluster());
    cleanup.push('remove the primary and the replica', () => cluster.remove());
    const config = loadConfig({
      ...env,
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_READ_URL: cluster.replicaUrl,
    });
    progress(`seeding ${sizes.lookupRows} suppressions, then waiting for the replica to replay them`);
    // The list is not measured here: one small account keeps its seed out of the way.
    const bench = await prepareApiBench(config, { ...sizes, listRows: 1000 }, logger, deadline, cleanup);
    const url = bench.service.url;
    progress('lookup: the service reading from the replica, versus the bare baseline on the primary');
    const beforeLookup = await readsServed(url);
    const lookup = await measureLookup(bench, deadline, progress);
    const afterLookup = await readsServed(url);
    progress('check: the service reading from the replica, versus the same query on a bare pool on the primary');
    const check = await measureCheck(bench, deadline);
    const afterCheck = await readsServed(url);
    progress('the replica stopped under 8 streams of lookups, then started again');
    const stop = await beforeDeadline(deadline, measureReplicaStop(bench, cluster, windows));
    progress('the replica’s replay paused behind a write made without the API, under 6 streams of lookups');
    const pause = await beforeDeadline(
      deadline,
      measureReplayPause(bench, cluster, config.DATABASE_READ_MAX_LAG_MS, windows),
    );
    await bench.service.stop();
    return {
      max_lag_ms: config.DATABASE_READ_MAX_LAG_MS,
      lookup,
      lookup_served: servedBetween(beforeLookup, afterLookup),
      check,
      check_served: servedBetween(afterLookup, afterCheck),
      stop,
      pause,
    };
  });
}

const served = ({ replica, primary, primaryBy }: ReadsServed): string =>
  `replica ${replica}, primary ${primary}${primary > 0 ? ` (${JSON.stringify(primaryBy)})` : ''}`;

/** The run as rows of a markdown table: figure, value. */
export function replicaRows(figures: ReplicaRunFigures): string[][] {
  const { lookup, check, stop, pause } = figures;
  return [
    [
      'lookup GET /suppressions/{email}, reading from the replica',
      `${lookup.rps} req/s, p50 ${lookup.p50_ms} ms, p99 ${lookup.p99_ms} ms (baseline on the primary ${lookup.baseline_rps} req/s, p99 ${lookup.baseline_p99_ms} ms; ratio ${lookup.ratio})`,
    ],
    ['lookup reads served', served(figures.lookup_served)],
    [
      'check (1,000 per request), reading from the replica',
      `${check.addresses_per_s} addresses/s (bare pg on the primary ${check.baseline_addresses_per_s}; ratio ${check.ratio}); with a scope ${check.scoped_addresses_per_s}`,
    ],
    ['check reads served', served(figures.check_served)],
    [
      'replica stopped under 8 streams of lookups',
      `${stop.requests} requests, ${stop.failed} failed; shown down ${stop.shown_down_ms} ms after the stop began; ${stop.retried_on_primary} reads retried on the primary; replica reads after: ${stop.replica_reads_after}; read from again ${stop.back_in_use_ms} ms after its start`,
    ],
    [
      `replay paused, a write behind the API (bound ${figures.max_lag_ms} ms)`,
      `${pause.requests} requests, ${pause.failed} failed; the replica answered without the entry ${pause.stale_within_bound} times within the bound and ${pause.stale_past_bound} past it; the primary from ${pause.primary_after_ms} ms after the write`,
    ],
  ];
}
