/**
 * The HTTP building blocks of `npm run bench`: a seeded database, the real service and the bare
 * baseline each in a child process, and the lookup, list and batch-add measurements.
 */
import { performance } from 'node:perf_hooks';
import type { Config } from '../../src/config.js';
import { issueApiKey } from '../../src/accounts/api-key-repository.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import { createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { startChildServer, type ChildServer } from './child-server.js';
import type { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { combineLoads, cycle, latencyProfile, quantile, runLoad, type LoadResult } from './http-load.js';
import { CpuTally } from './process-cpu.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';
import { seededEmail, seededRandom, seedSuppressions } from './seed.js';
import { replicasInUse, withReadReplicas } from './replica-reads.js';
import { createRedis } from '../../src/redis.js';

export interface ApiSizes {
  /** Suppressions spread over `accounts` for the lookup. */
  lookupRows: number;
  accounts: number;
  /** Accounts (of `accounts`) given an API key; lookups cycle over them. */
  keyedAccounts: number;
  /** Entries of the one account the list is paged in. */
  listRows: number;
  connections: number;
  warmupS: number;
  /** Seconds of lookup load on each server in all, split into `lookupRounds` alternating rounds. */
  loadS: number;
  lookupRounds: number;
  /** Sequential requests per list page kind. */
  listRequests: number;
  batchConnections: number;
  batchS: number;
  /** Connections of the send-time check (and concurrent queries of its baseline), and its seconds of load on each. */
  checkConnections: number;
  checkS: number;
}

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
}

export interface LookupFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  baseline_rps: number;
  baseline_p99_ms: number;
  ratio: number;
}

export interface ListFigures {
  first_page_p50_ms: number;
  deep_page_p50_ms: number;
  ratio: number;
}

/** A fresh database seeded in SQL, one key per keyed account, the service and the baseline started. */
export async function prepareApiBench(
  config: Config,
  sizes: ApiSizes,
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
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
  const started = startChildServer('bench/api/servers/service-server.ts', env);
  const service = await beforeDeadline(
    deadline,
    started.then((server) => replicasInUse(server)),
  );
  cleanup.push('stop service', () => service.stop());
  const redis = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('delete service Redis keys', async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });
  const baseline = await beforeDeadline(deadline, startChildServer('bench/api/servers/baseline-server.ts', env));
  cleanup.push('stop baseline', () => baseline.stop());
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
  };
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
    (durationS: number) => {
      const next = cycle(pairs);
      return runLoad({ url, connections: sizes.connections, durationS, next: () => request(next()) });
    };
  const serviceLoad = loadOf(bench.service.url, (pair) => ({
    path: `/suppressions/${encodeURIComponent(pair.email)}`,
    headers: { authorization: `Bearer ${bench.tokens[pair.key]}` },
  }));
  const baselineLoad = loadOf(bench.baseline.url, (pair) => ({
    path: `/${bench.accountIds[pair.key]}/${encodeURIComponent(pair.email)}`,
  }));
  if (sizes.warmupS > 0) {
    await beforeDeadline(deadline, baselineLoad(sizes.warmupS));
    await beforeDeadline(deadline, serviceLoad(sizes.warmupS));
  }
  // Short alternating rounds (baseline first, then service first, ...): a shared machine's load
  // drifts over seconds, and both servers should see the same drift.
  const rounds = Math.max(1, sizes.lookupRounds);
  const roundS = Math.max(1, Math.round(sizes.loadS / rounds));
  const servers = {
    baseline: { load: baselineLoad, rounds: [] as LoadResult[], cpu: new CpuTally(bench.baseline.pid) },
    service: { load: serviceLoad, rounds: [] as LoadResult[], cpu: new CpuTally(bench.service.pid) },
  };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? (['baseline', 'service'] as const) : (['service', 'baseline'] as const);
    for (const name of order) {
      const server = servers[name];
      server.rounds.push(
        checkLoad(`${name} lookup`, await server.cpu.during(() => beforeDeadline(deadline, server.load(roundS)))),
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

/** p50 of GET /suppressions?limit=100: the first page versus a page with a cursor near the end. */
export async function measureList(bench: ApiBench, deadline: Deadline): Promise<ListFigures> {
  // The 150th oldest entry: its `after` page is the last full page but one of the listing.
  const { rows } = await bench.db.query<{ id: string }>({
    text: 'SELECT id FROM suppressions WHERE account_id = $1 ORDER BY id ASC OFFSET 150 LIMIT 1',
    values: [bench.listAccountId],
  });
  const cursor = rows[0]?.id;
  if (cursor === undefined) throw new Error('the list account has too few entries');
  // Sequential requests timed here (sub-millisecond resolution; autocannon reports whole milliseconds).
  const timed = async (path: string): Promise<number> => {
    const startedAt = performance.now();
    const response = await fetch(`${bench.service.url}${path}`, {
      headers: { authorization: `Bearer ${bench.listToken}` },
    });
    const body = (await response.json()) as { data?: unknown[] };
    const ms = performance.now() - startedAt;
    if (response.status !== 200 || body.data?.length !== 100)
      throw new Error(`list ${path}: status ${response.status}, ${body.data?.length ?? 0} entries`);
    return ms;
  };
  const paths = { first: '/suppressions?limit=100', deep: `/suppressions?limit=100&after=${cursor}` };
  // The two pages alternate, request by request, so both see the same drift in the machine's load.
  const measure = async (requests: number): Promise<{ first: number[]; deep: number[] }> => {
    const timings = { first: [] as number[], deep: [] as number[] };
    for (let index = 0; index < requests; index += 1) {
      const order = index % 2 === 0 ? (['first', 'deep'] as const) : (['deep', 'first'] as const);
      for (const page of order) timings[page].push(await timed(paths[page]));
    }
    return timings;
  };
  const median = (values: number[]): number =>
    Math.round(
      quantile(
        [...values].sort((x, y) => x - y),
        0.5,
      ) * 1000,
    ) / 1000;
  // Warm both paths (plans, caches), then measure.
  await beforeDeadline(deadline, measure(Math.min(20, bench.sizes.listRequests)));
  const timings = await beforeDeadline(deadline, measure(bench.sizes.listRequests));
  const first = median(timings.first);
  const deep = median(timings.deep);
  return { first_page_p50_ms: first, deep_page_p50_ms: deep, ratio: round3(deep / first) };
}

/** POST /suppressions/batch/add with 100 new addresses per request: addresses written per second. */
export async function measureBatchAdd(bench: ApiBench, deadline: Deadline): Promise<{ addresses_per_s: number }> {
  let counter = 0;
  const tokens = bench.tokens;
  const result = checkLoad(
    'batch add',
    await beforeDeadline(
      deadline,
      runLoad({
        url: bench.service.url,
        connections: bench.sizes.batchConnections,
        durationS: bench.sizes.batchS,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        next: () => {
          const batch = counter++;
          const emails = Array.from({ length: 100 }, (_, index) => `new${batch}.${index}@batch.example.com`);
          return {
            path: '/suppressions/batch/add',
            headers: { authorization: `Bearer ${tokens[batch % tokens.length]}` },
            body: JSON.stringify({ emails }),
          };
        },
      }),
    ),
  );
  return { addresses_per_s: Math.round(result.okPerSecond * 100) };
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
