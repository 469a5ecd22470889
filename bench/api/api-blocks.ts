/**
 * The HTTP building blocks of `npm run bench`: a seeded database, the real service and the bare
 * baseline each in a child process, and the lookup measurement (the list and batch add are in
 * list-measure.ts and batch-add-measure.ts).
 */
import type { Config } from '../../src/config.js';
import { issueApiKey } from '../../src/accounts/api-key-repository.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import { createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { startChildServer, type ChildServer } from './child-server.js';
import type { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { combineLoads, cycle, latencyProfile, runLoad, type LoadResult, type LoadWindow } from './http-load.js';
import { CpuTally } from './process-cpu.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';
import { seededEmail, seededRandom, seedSuppressions } from './seed.js';
import { replicasInUse, withReadReplicas } from './replica-reads.js';
import type { ApiSizes } from './api-sizes.js';
import { createRedis } from '../../src/redis.js';

export interface ApiBench {
  db: Database;
  service: ChildServer;
  baseline: ChildServer;
  accountIds: string[];
  tokens: string[];
  listAccountId: string;
  listToken: string;
  sizes: ApiSizes;
  /** Rows per second of the SQL seeding (INSERT ... SELECT): what PostgreSQL itself writes here. */
  seedRowsPerSecond: number;
  /** The service's environment, for another service on the same database (the traced one). */
  serviceEnv: NodeJS.ProcessEnv;
  /** Services started beside the first with more settings (`prepareApiBench`'s `twins`), by name. */
  twins: Record<string, ChildServer>;
}

export interface LookupFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  baseline_rps: number;
  baseline_p99_ms: number;
  ratio: number;
}

const SERVICE_SERVER = 'bench/api/servers/service-server.ts';

/**
 * Starts child servers side by side (a start is mostly loading modules, so two take little more
 * than one on two cores), each stopped by `cleanup` whether or not the others start.
 */
async function startServers(
  servers: { what: string; script: string; env: NodeJS.ProcessEnv }[],
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<ChildServer[]> {
  const starting = servers.map(({ what, script, env }) => {
    const started = startChildServer(script, env);
    cleanup.push(`stop ${what}`, async () => {
      await (await started.catch(() => undefined))?.stop();
    });
    return started;
  });
  return beforeDeadline(deadline, Promise.all(starting));
}

/**
 * A fresh database seeded in SQL, one key per keyed account, the service and the baseline started;
 * and, for each of `twins`, another service on the same database with those settings added.
 */
export async function prepareApiBench(
  config: Config,
  sizes: ApiSizes,
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
  twins: Record<string, NodeJS.ProcessEnv> = {},
): Promise<ApiBench> {
  const bench = await beforeDeadline(deadline, createBenchDatabase(config.DATABASE_URL, logger));
  cleanup.push(`drop database ${bench.name}`, () => bench.drop());
  const db = createDatabase({ url: bench.url, logger, applicationName: 'bench-seed', statementTimeoutMs: 300_000 });
  cleanup.push('close seeding pool', () => db.close());

  const accountIds = await beforeDeadline(deadline, createAccounts(db, sizes.accounts));
  const [listAccountId] = await beforeDeadline(deadline, createAccounts(db, 1, 'bench-list'));
  if (listAccountId === undefined) throw new Error('no list account');
  const seedMs =
    (await beforeDeadline(deadline, seedSuppressions(db, accountIds, sizes.lookupRows))) +
    (await beforeDeadline(deadline, seedSuppressions(db, [listAccountId], sizes.listRows)));
  const seedRowsPerSecond = ((sizes.lookupRows + sizes.listRows) * 1000) / seedMs;

  const tokens: string[] = [];
  for (let index = 0; index < sizes.keyedAccounts; index += 1) {
    const key = await issueApiKey(db, { accountName: `bench-${index + 1}`, permission: 'full_access', name: 'bench' });
    tokens.push(key.token);
  }
  const listKey = await issueApiKey(db, { accountName: 'bench-list-1', permission: 'full_access', name: 'bench' });

  const prefix = freshPrefix('api');
  const redis = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('delete service Redis keys', async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });
  // With DATABASE_READ_URL set, the service reads from the replicas once they have replayed the seed.
  const env = withReadReplicas(config, bench.name, {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: bench.url,
    REDIS_URL: config.REDIS_URL,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    // Raised so the limiter is still consulted on every request but never refuses one.
    RATE_LIMIT_PER_SECOND: '1000000000',
  });
  const twinNames = Object.keys(twins);
  const [service, baseline, ...twinServers] = await startServers(
    [
      { what: 'service', script: SERVICE_SERVER, env },
      { what: 'baseline', script: 'bench/api/servers/baseline-server.ts', env },
      ...twinNames.map((name) => ({ what: name, script: SERVICE_SERVER, env: { ...env, ...twins[name] } })),
    ],
    deadline,
    cleanup,
  );
  if (service === undefined || baseline === undefined) throw new Error('the servers did not start');
  await beforeDeadline(deadline, replicasInUse(service));
  return {
    db,
    service,
    baseline,
    accountIds,
    tokens,
    listAccountId,
    listToken: listKey.token,
    sizes,
    seedRowsPerSecond,
    serviceEnv: env,
    twins: Object.fromEntries(twinNames.map((name, index) => [name, twinServers[index] as ChildServer])),
  };
}

/** A round of load on `connections` connections: `seconds` of it, or the sizes' `requestsPerRound` requests. */
export function loadWindow(sizes: ApiSizes, seconds: number, connections: number): LoadWindow {
  // autocannon sends at least one request per connection.
  return sizes.requestsPerRound === undefined
    ? { durationS: seconds }
    : { amount: Math.max(connections, sizes.requestsPerRound) };
}

/** Existing (key index, email) pairs, shuffled with a fixed seed, for lookups that all hit. */
export function lookupPairs(bench: ApiBench, count: number): { key: number; email: string }[] {
  const { accounts, keyedAccounts, lookupRows } = bench.sizes;
  const perAccount = Math.floor(lookupRows / accounts);
  const random = seededRandom(12345);
  return Array.from({ length: count }, () => {
    const key = Math.floor(random() * keyedAccounts);
    const row = key + accounts * Math.floor(random() * perAccount);
    return { key, email: seededEmail(row) };
  });
}

export function checkLoad(what: string, result: LoadResult): LoadResult {
  if (result.requests === 0 || result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${what}: ${result.requests} requests, ${result.non2xx} not 2xx, ${result.errors} errors`);
  }
  return result;
}

/** GET /suppressions/{email} on the service versus the bare indexed lookup, same pairs, same load. */
export async function measureLookup(
  bench: ApiBench,
  deadline: Deadline,
  progress: (message: string) => void = () => undefined,
): Promise<LookupFigures> {
  const { sizes } = bench;
  const pairs = lookupPairs(bench, 20_000);
  // Both servers get the same pairs in the same order; only the request's shape differs.
  const loadOf =
    (
      url: string,
      request: (pair: { key: number; email: string }) => { path: string; headers?: Record<string, string> },
    ) =>
    (window: LoadWindow) => {
      const next = cycle(pairs);
      return runLoad({ url, connections: sizes.connections, ...window, next: () => request(next()) });
    };
  const serviceLoad = loadOf(bench.service.url, (pair) => ({
    path: `/suppressions/${encodeURIComponent(pair.email)}`,
    headers: { authorization: `Bearer ${bench.tokens[pair.key]}` },
  }));
  const baselineLoad = loadOf(bench.baseline.url, (pair) => ({
    path: `/${bench.accountIds[pair.key]}/${encodeURIComponent(pair.email)}`,
  }));
  if (sizes.warmupS > 0) {
    await beforeDeadline(deadline, baselineLoad({ durationS: sizes.warmupS }));
    await beforeDeadline(deadline, serviceLoad({ durationS: sizes.warmupS }));
  }
  // Short alternating rounds (baseline first, then service first, ...): a shared machine's load
  // drifts over seconds, and both servers should see the same drift.
  const rounds = Math.max(1, sizes.lookupRounds);
  const roundLoad = loadWindow(sizes, Math.max(1, Math.round(sizes.loadS / rounds)), sizes.connections);
  const servers = {
    baseline: { load: baselineLoad, rounds: [] as LoadResult[], cpu: new CpuTally(bench.baseline.pid) },
    service: { load: serviceLoad, rounds: [] as LoadResult[], cpu: new CpuTally(bench.service.pid) },
  };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? (['baseline', 'service'] as const) : (['service', 'baseline'] as const);
    for (const name of order) {
      const server = servers[name];
      server.rounds.push(
        checkLoad(`${name} lookup`, await server.cpu.during(() => beforeDeadline(deadline, server.load(roundLoad)))),
      );
    }
  }
  const baseline = combineLoads(servers.baseline.rounds);
  const service = combineLoads(servers.service.rounds);
  progress(
    `lookup CPU per request: service ${servers.service.cpu.describe(service.requests)}; baseline ${servers.baseline.cpu.describe(baseline.requests)}`,
  );
  progress(
    `lookup latency p50/p90/p99/p99.9 ms: service ${latencyProfile(service)}; baseline ${latencyProfile(baseline)}`,
  );
  return {
    rps: Math.round(service.rps),
    p50_ms: service.p50Ms,
    p99_ms: service.p99Ms,
    baseline_rps: Math.round(baseline.rps),
    baseline_p99_ms: baseline.p99Ms,
    ratio: round3(service.rps / baseline.rps),
  };
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
