/**
 * `npm run bench` as a function: every building block in order on its own fresh database and queue
 * prefix, returning the figures in the shape of bench/results/latest.json. The integration test
 * runs it on tiny sizes so the bench cannot rot.
 */
import os from 'node:os';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { measureLookup, prepareApiBench, type LookupFigures } from './api-blocks.js';
import { FULL_API_SIZES, QUICK_API_SIZES, type ApiSizes } from './api-sizes.js';
import { measureBatchAdd } from './batch-add-measure.js';
import { measureList, type ListFigures } from './list-measure.js';
import { measureCheck, measureClient, type CheckFigures, type ClientFigures } from './check-measure.js';
import { inPhase, type CleanupStack } from '../common/cleanup.js';
import type { Deadline } from '../common/deadline.js';
import { measureImport } from '../import/import-measure.js';
import { INGEST_ROUNDS, measureIngest } from '../ingest/ingest-measure.js';
import { startTracing, stopTracing } from '../../src/tracing/tracing.js';
import { withMigratedTemplate } from '../common/bench-database.js';
import { measureTracing, startSpanSink, TRACED_TWIN, tracingEnv, type TracingFigures } from './tracing-measure.js';

export interface SuiteSizes {
  quick: boolean;
  api: ApiSizes;
  ingestEvents: number;
  /** Alternating rounds of the ingest measurement. */
  ingestRounds: number;
  importAddresses: number;
  /** Addresses `filterSendable` of the exported client is given at once. */
  clientAddresses: number;
}

export interface SuiteResults {
  when: string;
  node: string;
  cpus: number;
  quick: boolean;
  lookup: LookupFigures;
  check: CheckFigures;
  client: ClientFigures;
  list: ListFigures;
  batch_add: { addresses_per_s: number };
  ingest: {
    events: number;
    events_per_s: number;
    baseline_jobs_per_s: number;
    ratio: number;
    /** The same rows by COPY on the same queue (bench/ingest/copy-floor.ts): the database's own work. */
    floor_jobs_per_s: number;
    floor_ratio: number;
  };
  import: {
    addresses: number;
    addresses_per_s: number;
    peak_rss_mb: number;
    /** Entries and their addition records by bare COPYs: what the import stores. */
    copy_rows_per_s: number;
    ratio: number;
    /** Entries alone by a bare COPY. */
    copy_entries_only_rows_per_s: number;
    ratio_entries_only: number;
  };
  service_peak_rss_mb: number;
  /** The same loads with every span exported over OTLP to a collector on loopback, against tracing off. */
  tracing: TracingFigures & {
    ingest: { events_per_s: number; baseline_jobs_per_s: number; ratio: number; ratio_off: number };
  };
}

export const FULL_SIZES: SuiteSizes = {
  quick: false,
  api: FULL_API_SIZES,
  ingestEvents: 100_000,
  ingestRounds: INGEST_ROUNDS,
  importAddresses: 1_000_000,
  clientAddresses: 100_000,
};

export const QUICK_SIZES: SuiteSizes = {
  quick: true,
  api: QUICK_API_SIZES,
  ingestEvents: 20_000,
  ingestRounds: 2,
  importAddresses: 100_000,
  clientAddresses: 100_000,
};

const mb = (value: number): number => Math.round(value * 10) / 10;
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Every block in order, each on a fresh database copied from one migrated template (or from the one
 * in force around the call, see `copyingTemplate`).
 */
export function runSuite(
  config: Config,
  sizes: SuiteSizes,
  logger: Logger,
  deadline: Deadline,
  progress: (message: string) => void = () => undefined,
): Promise<SuiteResults> {
  return withMigratedTemplate(config.DATABASE_URL, logger, () => runBlocks(config, sizes, logger, deadline, progress));
}

async function runBlocks(
  config: Config,
  sizes: SuiteSizes,
  logger: Logger,
  deadline: Deadline,
  progress: (message: string) => void,
): Promise<SuiteResults> {
  const { requestsPerRound } = sizes.api;
  const loadOf = (seconds: number): string =>
    requestsPerRound === undefined ? `${seconds} s` : `${requestsPerRound} requests a round`;
  const api = await inPhase('api', logger, async (cleanup) => {
    progress(
      `seeding ${sizes.api.lookupRows} suppressions over ${sizes.api.accounts} accounts and ${sizes.api.listRows} in one account`,
    );
    // The traced twin of the tracing block starts with the service and waits, idle, for its rounds.
    const sink = await startSpanSink();
    cleanup.push('close the span sink', () => sink.close());
    const bench = await prepareApiBench(config, sizes.api, logger, deadline, cleanup, {
      [TRACED_TWIN]: tracingEnv(sink.endpoint),
    });
    progress(
      `seeded at ${Math.round(bench.seedRowsPerSecond)} rows/s: PostgreSQL's own INSERT ... SELECT rate for suppressions here`,
    );
    progress(
      `lookup: service ${bench.service.url} versus baseline ${bench.baseline.url}, ${sizes.api.connections} connections, ${loadOf(sizes.api.loadS)} each`,
    );
    const lookup = await measureLookup(bench, deadline, progress);
    progress(
      `check: 1,000 addresses per request, ${sizes.api.checkConnections} connections, versus the same query on a bare pg pool`,
    );
    const check = await measureCheck(bench, deadline);
    progress(`client: filterSendable over ${sizes.clientAddresses} addresses`);
    const client = await measureClient(bench, sizes.clientAddresses, deadline);
    progress('list: first page versus a deep page');
    const list = await measureList(bench, deadline);
    progress(`batch add: ${sizes.api.batchConnections} connections, ${loadOf(sizes.api.batchS)}`);
    const batchAdd = await measureBatchAdd(bench, deadline);
    progress('tracing: lookups and checks on the service and on a traced twin, in alternating rounds');
    const tracing = await measureTracing(bench, sink, deadline);
    const servicePeakRssMb = await bench.service.stop();
    return { lookup, check, client, list, batchAdd, tracing, servicePeakRssMb };
  });

  progress(`ingest: ${sizes.ingestEvents} events, BullMQ no-op worker versus event worker`);
  const ingestSettings = {
    events: sizes.ingestEvents,
    concurrency: config.WORKER_CONCURRENCY,
    batchSize: undefined,
    batchDelayMs: undefined,
    batchesInFlight: undefined,
    poolSize: config.DATABASE_POOL_SIZE,
    timeoutS: 0,
    rounds: sizes.ingestRounds,
    webhooks: 0,
    deliverBeside: true,
    softBounceThreshold: null,
    classifier: 'classifier' as const,
  };
  const ingest = await inPhase('ingest', logger, (cleanup: CleanupStack) =>
    measureIngest(config, ingestSettings, logger, deadline, cleanup),
  );
  if (ingest.problems.length > 0) throw new Error(`ingest verification failed:\n  ${ingest.problems.join('\n  ')}`);

  progress('ingest with tracing on: the same run, every span exported to a collector on loopback');
  const tracedIngest = await inPhase('traced ingest', logger, async (cleanup: CleanupStack) => {
    const sink = await startSpanSink();
    cleanup.push('close the span sink', () => sink.close());
    // This process traces from here: the event worker, its pool and its queue are made traced. The
    // SDK reads its exporter's settings from the environment itself.
    const env = tracingEnv(sink.endpoint);
    Object.assign(process.env, env);
    cleanup.push('stop tracing', async () => {
      await stopTracing();
      for (const name of Object.keys(env)) delete process.env[name];
    });
    await startTracing('bench-ingest', env);
    return measureIngest(config, { ...ingestSettings, rounds: 1 }, logger, deadline, cleanup);
  });
  if (tracedIngest.problems.length > 0) {
    throw new Error(`traced ingest verification failed:\n  ${tracedIngest.problems.join('\n  ')}`);
  }

  progress(`import: ${sizes.importAddresses} addresses through the command line`);
  const imported = await inPhase('import', logger, (cleanup: CleanupStack) =>
    measureImport(
      config,
      { addresses: sizes.importAddresses, workerConcurrency: undefined },
      logger,
      deadline,
      cleanup,
    ),
  );

  return {
    when: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    quick: sizes.quick,
    lookup: api.lookup,
    check: api.check,
    client: api.client,
    list: api.list,
    batch_add: api.batchAdd,
    ingest: {
      events: sizes.ingestEvents,
      events_per_s: Math.round(ingest.service.run.jobsPerSecond),
      baseline_jobs_per_s: Math.round(ingest.baseline.run.jobsPerSecond),
      ratio: round3(ingest.ratio),
      floor_jobs_per_s: Math.round(ingest.floor?.run.jobsPerSecond ?? 0),
      floor_ratio: round3(ingest.floorRatio ?? 0),
    },
    import: {
      addresses: imported.addresses,
      addresses_per_s: Math.round(imported.addressesPerSecond),
      peak_rss_mb: mb(imported.run.peakRssMb),
      copy_rows_per_s: Math.round(imported.copy.withRecords.rowsPerSecond),
      ratio: round3(imported.ratio),
      copy_entries_only_rows_per_s: Math.round(imported.copy.entriesOnly.rowsPerSecond),
      ratio_entries_only: round3(imported.ratioEntriesOnly),
    },
    service_peak_rss_mb: mb(api.servicePeakRssMb),
    tracing: {
      ...api.tracing,
      ingest: {
        events_per_s: Math.round(tracedIngest.service.run.jobsPerSecond),
        baseline_jobs_per_s: Math.round(tracedIngest.baseline.run.jobsPerSecond),
        ratio: round3(tracedIngest.ratio),
        ratio_off: round3(ingest.ratio),
      },
    },
  };
}
