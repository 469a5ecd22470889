/**
 * npm run bench:containers: how fit the service's image is for tests, on this machine's container
 * runtime (podman's socket after `npm run podman:start`, else whatever Testcontainers finds):
 *
 * - the image from its start to `/ready`, once PostgreSQL and Redis are up: the time `start()` of
 *   the bare image takes (create, start, the HTTP wait), and the part of it from the moment the
 *   runtime says the process started (its `State.StartedAt`) to `/ready`;
 * - `new SuppressionListContainer().start()` from nothing: network, PostgreSQL, Redis, the service,
 *   its keys; and its `stop()`;
 * - the baseline, measured in the same run: the bare Redis image from its start to its ready line,
 *   what any container costs this runtime, and the ratio of each figure to it.
 *
 * Reported, never asserted: a shared machine's figures vary from run to run, so each is the median
 * of `--runs` (default 5, 3 from nothing) with its range. Targets: under 5 s to `/ready`, under 20 s
 * from nothing. Everything started is removed.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { existsSync } from 'node:fs';
import { startBackingStores } from '../../src/testcontainers/backing-stores.js';
import {
  DEFAULT_IMAGE,
  DEFAULT_REDIS_IMAGE,
  HTTP_PORT,
  SuppressionListContainer,
} from '../../src/testcontainers/index.js';
import { PODMAN_SOCKET, TESTCONTAINERS_ENV } from '../../test/image/podman-service.js';
import { parseIntOptions } from '../common/options.js';
import { markdownTable } from '../common/report.js';

interface Sample {
  totalMs: number;
  /** From the runtime's `State.StartedAt` to ready, when it has one. */
  afterStartMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summary(values: readonly number[]): { median: number; range: string } {
  return { median: median(values), range: `${seconds(Math.min(...values))} – ${seconds(Math.max(...values))}` };
}

/** Times `start`, and the part of it after the runtime started the container's process. */
async function timeStart(
  start: () => Promise<StartedTestContainer>,
): Promise<{ sample: Sample; started: StartedTestContainer }> {
  const began = performance.now();
  const beganAt = Date.now();
  const started = await start();
  const totalMs = performance.now() - began;
  const readyAt = beganAt + totalMs;
  const client = await getContainerRuntimeClient();
  const inspected = await client.container.inspect(client.container.getById(started.getId()));
  const afterStartMs = readyAt - Date.parse(inspected.State.StartedAt);
  return { sample: { totalMs, afterStartMs }, started };
}

async function baseline(runs: number, network: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    const { sample, started } = await timeStart(() =>
      new GenericContainer(DEFAULT_REDIS_IMAGE)
        .withNetworkMode(network)
        .withExposedPorts(6379)
        .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
        .start(),
    );
    samples.push(sample);
    await started.stop();
  }
  return samples;
}

async function imageToReady(runs: number, env: Record<string, string>, network: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    const { sample, started } = await timeStart(() =>
      new GenericContainer(DEFAULT_IMAGE)
        .withNetworkMode(network)
        .withEnvironment({ ...env, NODE_ENV: 'development', HOST: '0.0.0.0', PORT: String(HTTP_PORT) })
        .withExposedPorts(HTTP_PORT)
        .withWaitStrategy(Wait.forHttp('/ready', HTTP_PORT).forStatusCode(200))
        .withStartupTimeout(60_000)
        .start(),
    );
    samples.push(sample);
    await started.stop();
  }
  return samples;
}

async function fromNothing(runs: number): Promise<{ start: number[]; stop: number[] }> {
  const start: number[] = [];
  const stop: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const began = performance.now();
    const sl = await new SuppressionListContainer().start();
    start.push(performance.now() - began);
    const stopping = performance.now();
    await sl.stop();
    stop.push(performance.now() - stopping);
  }
  return { start, stop };
}

async function main(): Promise<void> {
  const options = parseIntOptions({
    runs: { flag: 'runs', env: 'BENCH_RUNS', min: 1 },
    fromNothingRuns: { flag: 'from-nothing-runs', env: 'BENCH_FROM_NOTHING_RUNS', min: 1 },
  });
  const runs = options.runs ?? 5;
  if (process.env.DOCKER_HOST === undefined && existsSync(PODMAN_SOCKET))
    Object.assign(process.env, TESTCONTAINERS_ENV);
  const client = await getContainerRuntimeClient();
  console.log(
    `runtime: ${client.info.containerRuntime.serverVersion} (${client.info.containerRuntime.operatingSystem}), ${client.info.containerRuntime.cpus} CPUs; images ${DEFAULT_IMAGE}, ${DEFAULT_REDIS_IMAGE}`,
  );

  // One PostgreSQL and Redis for the image's starts, up before the first is timed.
  const stores = await startBackingStores({
    postgres: undefined,
    redis: undefined,
    network: undefined,
    startupTimeoutMs: 120_000,
    startId: randomUUID(),
  });
  let base: Sample[];
  let ready: Sample[];
  try {
    const network = stores.network!;
    base = await baseline(runs, network);
    ready = await imageToReady(runs, { DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl }, network);
  } finally {
    await stores.stop();
  }
  const nothing = await fromNothing(options.fromNothingRuns ?? 3);

  const baseTotal = summary(base.map((sample) => sample.totalMs));
  const ratio = (ms: number): string => `${(ms / baseTotal.median).toFixed(1)}×`;
  const rows: [string, { median: number; range: string }][] = [
    ['baseline: redis:7-alpine, start() to its ready line', baseTotal],
    ['baseline: the same, from the process start', summary(base.map((sample) => sample.afterStartMs))],
    ['the image, start() to /ready 200 (stores up)', summary(ready.map((sample) => sample.totalMs))],
    ['the image, from the process start to /ready 200', summary(ready.map((sample) => sample.afterStartMs))],
    ['SuppressionListContainer().start() from nothing', summary(nothing.start)],
    ['its stop(), everything removed', summary(nothing.stop)],
  ];
  console.log(
    markdownTable(
      ['measure', 'median', 'range', 'runs', 'to the baseline'],
      rows.map(([what, figure], index) => [
        what,
        seconds(figure.median),
        figure.range,
        index < 4 ? runs : nothing.start.length,
        ratio(figure.median),
      ]),
    ),
  );
  console.log(
    '\nTargets: under 5 s from the process start to /ready, under 20 s from nothing. Figures of a shared machine vary with its load.',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
