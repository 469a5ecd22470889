/**
 * What tracing costs: the same service on the same database twice, once as it runs by default
 * (tracing off) and once exporting every span over OTLP to a collector on loopback, under the same
 * lookup and check loads in alternating rounds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { checkLoad, loadWindow, lookupPairs, type ApiBench } from './api-blocks.js';
import { checkRequests, checkSets, loadChecks } from './check-load.js';
import { combineLoads, cycle, runLoad, type LoadResult, type LoadWindow } from './http-load.js';

/** A collector that takes OTLP/HTTP exports and keeps only their count and size. */
export interface SpanSink {
  endpoint: string;
  readonly exports: number;
  readonly bytes: number;
  close(): Promise<void>;
}

export async function startSpanSink(): Promise<SpanSink> {
  let exports = 0;
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get exports() {
      return exports;
    },
    get bytes() {
      return bytes;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The environment that turns tracing on, every trace sampled, exporting to `endpoint`. */
export function tracingEnv(endpoint: string): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_TRACES_SAMPLER: 'always_on',
  };
}

export interface TracedFigures {
  rps_off: number;
  rps_on: number;
  p99_ms_off: number;
  p99_ms_on: number;
  /** Throughput with tracing on over off: 1 costs nothing. */
  ratio: number;
}

export interface TracingFigures {
  lookup: TracedFigures;
  check: TracedFigures;
  /** OTLP exports the collector took, and their bytes, during the traced service's load. */
  exports: number;
  export_mb: number;
}

function figures(off: LoadResult[], on: LoadResult[]): TracedFigures {
  const untraced = combineLoads(off);
  const traced = combineLoads(on);
  return {
    rps_off: Math.round(untraced.rps),
    rps_on: Math.round(traced.rps),
    p99_ms_off: untraced.p99Ms,
    p99_ms_on: traced.p99Ms,
    ratio: Math.round((traced.rps / untraced.rps) * 1000) / 1000,
  };
}

/** The name of the traced twin among the bench's services (`prepareApiBench`'s `twins`). */
export const TRACED_TWIN = 'traced service';

/**
 * Lookups and checks on the bench's service (tracing off) and its traced twin, started beside it
 * with `tracingEnv(sink.endpoint)`, in alternating rounds; the twin is stopped at the end.
 */
export async function measureTracing(bench: ApiBench, sink: SpanSink, deadline: Deadline): Promise<TracingFigures> {
  const traced = bench.twins[TRACED_TWIN];
  if (traced === undefined) throw new Error(`the bench was prepared without its ${TRACED_TWIN}`);
  const { sizes } = bench;
  const pairs = lookupPairs(bench, 20_000);
  const lookup = (url: string) => (window: LoadWindow) => {
    const next = cycle(pairs);
    return runLoad({
      url,
      connections: sizes.connections,
      ...window,
      next: () => {
        const pair = next();
        return {
          path: `/suppressions/${encodeURIComponent(pair.email)}`,
          headers: { authorization: `Bearer ${bench.tokens[pair.key] as string}` },
        };
      },
    });
  };
  const requests = checkRequests(bench, checkSets(bench));
  const check = (url: string) => (window: LoadWindow) => loadChecks(bench, url, window, requests);
  const rounds = Math.max(2, sizes.lookupRounds);
  const lookupRound = loadWindow(sizes, Math.max(1, Math.round(sizes.loadS / rounds)), sizes.connections);
  const checkRound = loadWindow(sizes, Math.max(1, Math.round(sizes.checkS / rounds)), sizes.checkConnections);
  if (sizes.warmupS > 0) await beforeDeadline(deadline, lookup(traced.url)({ durationS: sizes.warmupS }));
  const loads = {
    lookup: { off: [] as LoadResult[], on: [] as LoadResult[] },
    check: { off: [] as LoadResult[], on: [] as LoadResult[] },
  };
  const exportsBefore = { exports: sink.exports, bytes: sink.bytes };
  for (let round = 0; round < rounds; round += 1) {
    // Off first in even rounds, on first in odd ones: both see the machine's drift alike.
    const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const mode of order) {
      const url = mode === 'off' ? bench.service.url : traced.url;
      loads.lookup[mode].push(checkLoad(`${mode} lookup`, await beforeDeadline(deadline, lookup(url)(lookupRound))));
      loads.check[mode].push(checkLoad(`${mode} check`, await beforeDeadline(deadline, check(url)(checkRound))));
    }
  }
  await traced.stop();
  return {
    lookup: figures(loads.lookup.off, loads.lookup.on),
    check: figures(loads.check.off, loads.check.on),
    exports: sink.exports - exportsBefore.exports,
    export_mb: Math.round(((sink.bytes - exportsBefore.bytes) / 1e6) * 10) / 10,
  };
}
