/**
 * The scale benchmark's clocks: calls timed back to back on several connections, and two operations
 * compared in turns.
 */
import { performance } from 'node:perf_hooks';

export interface Latency {
  ops: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Versus {
  service: Latency;
  bare: Latency;
}

const percentile = (sorted: readonly number[], share: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number);

/**
 * Makes call `n`'s input and returns the call to time: inputs are made outside the clock, so the
 * loops measure the database and not the generator.
 */
export type Prepare = (n: number) => () => Promise<unknown>;

/** Calls back to back on `connections` loops for `seconds`; each call's time, and the time taken. */
export async function timesFor(
  seconds: number,
  connections: number,
  prepare: Prepare,
  first: number,
): Promise<{ times: number[]; elapsedS: number }> {
  const times: number[] = [];
  const stopAt = performance.now() + seconds * 1000;
  let next = first;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < stopAt) {
        const call = prepare(next++);
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, elapsedS: (performance.now() - started) / 1000 };
}

export function latency(runs: readonly { times: number[]; elapsedS: number }[]): Latency {
  const times = runs.flatMap((run) => run.times).sort((a, b) => a - b);
  const elapsed = runs.reduce((sum, run) => sum + run.elapsedS, 0);
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return {
    ops: times.length,
    perSecond: Math.round(times.length / elapsed),
    p50Ms: round(percentile(times, 0.5)),
    p99Ms: round(percentile(times, 0.99)),
  };
}

// Two operations compared take turns, a then b, b then a, twice over, so that neither always runs
// on what the other left in the cache.
const TURNS = ['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a'] as const;

/**
 * Where `b`'s inputs start: each side draws its own addresses, so that neither reads the pages the
 * other's same inputs brought into the cache.
 */
const B_INPUTS = 1_000_000_000;

/** `a` and `b` for `seconds` each, in turns (`TURNS`), on `connections` loops; inputs go on from turn to turn. */
export async function inTurns(
  seconds: number,
  connections: number,
  a: Prepare,
  b: Prepare,
): Promise<[Latency, Latency]> {
  const runs = { a: [] as { times: number[]; elapsedS: number }[], b: [] as { times: number[]; elapsedS: number }[] };
  const next = { a: 0, b: B_INPUTS };
  const turnSeconds = (seconds * 2) / TURNS.length;
  for (const turn of TURNS) {
    const run = await timesFor(turnSeconds, connections, turn === 'a' ? a : b, next[turn]);
    next[turn] += run.times.length;
    runs[turn].push(run);
  }
  return [latency(runs.a), latency(runs.b)];
}

/** `service` against `bare`, in turns, for `seconds` each on `connections` loops. */
export async function versus(
  ctx: { seconds: number; connections: number },
  service: Prepare,
  bare: Prepare,
): Promise<Versus> {
  const [serviceLatency, bareLatency] = await inTurns(ctx.seconds, ctx.connections, service, bare);
  return { service: serviceLatency, bare: bareLatency };
}
