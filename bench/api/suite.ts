/**
 * `npm run bench` as a function: every building block in order on its own fresh database and queue
 * prefix and within its share of the run's time, returning the figures in the shape of
 * bench/results/latest.json. The integration test runs it on tiny sizes so the bench cannot rot.
 */
import os from 'node:os';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { measureLookup, prepareApiBench, type LookupFigures } from './api-blocks.js';
import { FULL_API_SIZES, QUICK_API_SIZES, type ApiSizes } from './api-sizes.js';
import { measureBatchAdd } from './batch-add-measure.js';
import { measureList, type ListFigures } from './list-measure.js';
import { measureCheck, measureClient, type CheckFigures, type ClientFigures } from './check-measure.js';
import { runBlocks, type Block, type Unfinished } from '../common/blocks.js';
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

/** The figures of `npm run bench`, each present once its measurement finished. */
export interface SuiteFigures {
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
    ingest?: { events_per_s: number; baseline_jobs_per_s: number; ratio: number; ratio_off: number };
  };
}

/** bench/results/latest.json: the run, what it measured, and the blocks that did not finish and why. */
export type SuiteResults = {
  when: string;
  node: string;
  cpus: number;
  quick: boolean;
  unfinished: Unfinished[];
} & Partial<SuiteFigures>;

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
 * Each block's share of the run's time, from a full run on a quiet two-core machine: the API's
 * block seeds and starts three servers, and the import measures the import and then bare COPYs.
 */
const SHARES = { api: 0.5, ingest: 0.18, tracedIngest: 0.1, import: 0.22 };

/**
 * Every block in order, each on a fresh database copied from one migrated template (or from the one
 * in force around the call, see `copyingTemplate`). `save` is given the figures so far after each
 * block, so that a run cut short keeps what it measured.
 */
export function runSuite(
  config: Config,
  sizes: SuiteSizes,
  logger: Logger,
  deadline: Deadline,
  progress: (message: string) => void = () => undefined,
  save: (results: SuiteResults) => Promise<void> | void = () => undefined,
): Promise<SuiteResults> {
  const results: SuiteResults = {
    when: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    quick: sizes.quick,
    unfinished: [],
  };
  const blocks = suiteBlocks(config, sizes, logger, progress, results);
  return withMigratedTemplate(config.DATABASE_URL, logger, async () => {
    results.unfinished = await runBlocks(blocks, deadline, logger, async (unfinished) => {
      results.unfinished = [...unfinished];
      await save(results);
    });
    return results;
  });
}

function suiteBlocks(
  config: Config,
  sizes: SuiteSizes,
  logger: Logger,
  progress: (message: string) => void,
  results: SuiteResults,
): Block[] {
  const { requestsPerRound } = sizes.api;
  const loadOf = (seconds: number): string =>
    requestsPerRound === undefined ? `${seconds} s` : `${requestsPerRound} requests a round`;
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

  const api: Block = {
    name: 'api',
    share: SHARES.api,
    async run(deadline, cleanup) {
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
      results.lookup = await measureLookup(bench, deadline, progress);
      progress(
        `check: 1,000 addresses per request, ${sizes.api.checkConnections} connections, versus the same query on a bare pg pool`,
      );
      results.check = await measureCheck(bench, deadline);
      progress(`client: filterSendable over ${sizes.clientAddresses} addresses`);
      results.client = await measureClient(bench, sizes.clientAddresses, deadline);
      progress('list: first page versus a deep page');
      results.list = await measureList(bench, deadline);
      progress(`batch add: ${sizes.api.batchConnections} connections, ${loadOf(sizes.api.batchS)}`);
      results.batch_add = await measureBatchAdd(bench, deadline);
      progress('tracing: lookups and checks on the service and on a traced twin, in alternating rounds');
      results.tracing = await measureTracing(bench, sink, deadline);
      results.service_peak_rss_mb = mb(await bench.service.stop());
    },
  };

  const ingest: Block = {
    name: 'ingest',
    share: SHARES.ingest,
    async run(deadline, cleanup) {
      progress(`ingest: ${sizes.ingestEvents} events, BullMQ no-op worker versus event worker`);
      const run = await measureIngest(config, ingestSettings, logger, deadline, cleanup);
      if (run.problems.length > 0) throw new Error(`ingest verification failed:\n  ${run.problems.join('\n  ')}`);
      results.ingest = {
        events: sizes.ingestEvents,
        events_per_s: Math.round(run.service.run.jobsPerSecond),
        baseline_jobs_per_s: Math.round(run.baseline.run.jobsPerSecond),
        ratio: round3(run.ratio),
        floor_jobs_per_s: Math.round(run.floor?.run.jobsPerSecond ?? 0),
        floor_ratio: round3(run.floorRatio ?? 0),
      };
    },
  };

  const tracedIngest: Block = {
    name: 'traced ingest',
    share: SHARES.tracedIngest,
    async run(deadline, cleanup) {
      progress('ingest with tracing on: the same run, every span exported to a collector on loopback');
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
      const run = await measureIngest(config, { ...ingestSettings, rounds: 1 }, logger, deadline, cleanup);
      if (run.problems.length > 0) {
        throw new Error(`traced ingest verification failed:\n  ${run.problems.join('\n  ')}`);
      }
      // Against the untraced ingest of the block before, when that one finished.
      if (results.tracing !== undefined && results.ingest !== undefined) {
        results.tracing.ingest = {
          events_per_s: Math.round(run.service.run.jobsPerSecond),
          baseline_jobs_per_s: Math.round(run.baseline.run.jobsPerSecond),
          ratio: round3(run.ratio),
          ratio_off: results.ingest.ratio,
        };
      }
    },
  };

  const imported: Block = {
    name: 'import',
    share: SHARES.import,
    async run(deadline, cleanup) {
      progress(`import: ${sizes.importAddresses} addresses through the command line`);
      const run = await measureImport(
        config,
        { addresses: sizes.importAddresses, workerConcurrency: undefined },
        logger,
        deadline,
        cleanup,
      );
      results.import = {
        addresses: run.addresses,
        addresses_per_s: Math.round(run.addressesPerSecond),
        peak_rss_mb: mb(run.run.peakRssMb),
        copy_rows_per_s: Math.round(run.copy.withRecords.rowsPerSecond),
        ratio: round3(run.ratio),
        copy_entries_only_rows_per_s: Math.round(run.copy.entriesOnly.rowsPerSecond),
        ratio_entries_only: round3(run.ratioEntriesOnly),
      };
    },
  };

  return [api, ingest, tracedIngest, imported];
}
