/**
 * `npm run bench` as a function: every building block in order on its own fresh database and queue
 * prefix, returning the figures in the shape of bench/results/latest.json. The integration test
 * runs it on tiny sizes so the bench cannot rot.
 */
import os from 'node:os';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import {
  measureBatchAdd,
  measureList,
  measureLookup,
  prepareApiBench,
  type ApiSizes,
  type ListFigures,
  type LookupFigures,
} from './api-blocks.js';
import { measureCheck, measureClient, type CheckFigures, type ClientFigures } from './check-measure.js';
import type { CleanupStack } from '../common/cleanup.js';
import type { Deadline } from '../common/deadline.js';
import { measureImport } from '../import/import-measure.js';
import { INGEST_ROUNDS, inPhase, measureIngest } from '../ingest/ingest-measure.js';
import { startTracing, stopTracing } from '../../src/tracing/tracing.js';
import { measureTracing, startSpanSink, tracingEnv, type TracingFigures } from './tracing-measure.js';

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
  api: {
    lookupRows: 1_000_000,
    accounts: 1000,
    keyedAccounts: 100,
    listRows: 1_000_000,
    connections: 50,
    warmupS: 2,
    loadS: 15,
    lookupRounds: 5,
    listRequests: 200,
    batchConnections: 10,
    batchS: 10,
    checkConnections: 10,
    checkS: 10,
  },
  ingestEvents: 100_000,
  ingestRounds: INGEST_ROUNDS,
  importAddresses: 1_000_000,
  clientAddresses: 100_000,
};

export const QUICK_SIZES: SuiteSizes = {
  quick: true,
  api: {
    lookupRows: 100_000,
    accounts: 100,
    keyedAccounts: 100,
    listRows: 100_000,
    connections: 50,
    warmupS: 1,
    loadS: 4,
    lookupRounds: 2,
    listRequests: 100,
    batchConnections: 10,
    batchS: 3,
    checkConnections: 10,
    checkS: 4,
  },
  ingestEvents: 20_000,
  ingestRounds: 2,
  importAddresses: 100_000,
  clientAddresses: 100_000,
};

export const TARGETS = {
  lookupRatio: 1.0,
  lookupP99Factor: 1.0,
  checkRatio: 0.5,
  scopedCheckRatio: 0.9,
  listRatio: 1.2,
  ingestRatio: 0.9,
  importRatio: 0.9,
};

const mb = (value: number): number => Math.round(value * 10) / 10;
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

export async function runSuite(
  config: Config,
  sizes: SuiteSizes,
  logger: Logger,
  deadline: Deadline,
  progress: (message: string) => void = () => undefined,
): Promise<SuiteResults> {
  const api = await inPhase('api', logger, async (cleanup) => {
    progress(
      `seeding ${sizes.api.lookupRows} suppressions over ${sizes.api.accounts} accounts and ${sizes.api.listRows} in one account`,
    );
    const bench = await prepareApiBench(config, sizes.api, logger, deadline, cleanup);
    progress(
      `seeded at ${Math.round(bench.seedRowsPerSecond)} rows/s: PostgreSQL's own INSERT ... SELECT rate for suppressions here`,
    );
    progress(
      `lookup: service ${bench.service.url} versus baseline ${bench.baseline.url}, ${sizes.api.connections} connections, ${sizes.api.loadS} s each`,
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
    progress(`batch add: ${sizes.api.batchConnections} connections, ${sizes.api.batchS} s`);
    const batchAdd = await measureBatchAdd(bench, deadline);
    progress('tracing: lookups and checks on the service and on a traced twin, in alternating rounds');
    const tracing = await measureTracing(bench, deadline, cleanup);
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

/** The run as a markdown table: figure, value, baseline, ratio, target, met. */
export function summaryRows(results: SuiteResults): (string | number)[][] {
  const { lookup, check, client, list, batch_add: batch, ingest, import: imported, tracing } = results;
  const yes = (met: boolean): string => (met ? 'yes' : 'NO');
  const lookupMet =
    lookup.ratio >= TARGETS.lookupRatio && lookup.p99_ms <= TARGETS.lookupP99Factor * lookup.baseline_p99_ms;
  return [
    [
      'lookup GET /suppressions/{email}',
      `${lookup.rps} req/s, p50 ${lookup.p50_ms} ms, p99 ${lookup.p99_ms} ms`,
      `${lookup.baseline_rps} req/s, p99 ${lookup.baseline_p99_ms} ms`,
      `${lookup.ratio}`,
      `≥ ${TARGETS.lookupRatio}, p99 ≤ ${TARGETS.lookupP99Factor}× baseline`,
      yes(lookupMet),
    ],
    [
      'check POST /suppressions/check (1,000 per request)',
      `${check.addresses_per_s} addresses/s`,
      `${check.baseline_addresses_per_s} addresses/s (bare pg, same query)`,
      `${check.ratio}`,
      `≥ ${TARGETS.checkRatio}`,
      yes(check.ratio >= TARGETS.checkRatio),
    ],
    [
      'check with a scope (1,000 per request)',
      `${check.scoped_addresses_per_s} addresses/s`,
      `${check.addresses_per_s} addresses/s (the check without a scope)`,
      `${check.scoped_ratio}`,
      `≥ ${TARGETS.scopedCheckRatio}`,
      yes(check.scoped_ratio >= TARGETS.scopedCheckRatio),
    ],
    ['client filterSendable', `${client.addresses_per_s} addresses/s (${client.addresses} addresses)`, '', '', '', ''],
    [
      'list p50, first vs deep page',
      `deep ${list.deep_page_p50_ms} ms`,
      `first ${list.first_page_p50_ms} ms`,
      `${list.ratio}`,
      `≤ ${TARGETS.listRatio}`,
      yes(list.ratio <= TARGETS.listRatio),
    ],
    ['batch add (100 per request)', `${batch.addresses_per_s} addresses/s`, '', '', '', ''],
    [
      'ingest (event worker)',
      `${ingest.events_per_s} events/s (${ingest.events} events)`,
      `${ingest.baseline_jobs_per_s} jobs/s (BullMQ no-op)`,
      `${ingest.ratio}`,
      `≥ ${TARGETS.ingestRatio}`,
      yes(ingest.ratio >= TARGETS.ingestRatio),
    ],
    [
      'ingest against its rows by COPY',
      `${ingest.events_per_s} events/s`,
      `${ingest.floor_jobs_per_s} jobs/s (the same rows by COPY, same queue)`,
      `${ingest.floor_ratio}`,
      '',
      '',
    ],
    [
      'import (CLI, --wait)',
      `${imported.addresses_per_s} addresses/s (${imported.addresses}), CLI peak RSS ${imported.peak_rss_mb} MB`,
      `${imported.copy_rows_per_s} entries/s (bare COPYs of the entries and their records; ` +
        `${imported.copy_entries_only_rows_per_s}/s the entries alone, ratio ${imported.ratio_entries_only})`,
      `${imported.ratio}`,
      `≥ ${TARGETS.importRatio}`,
      yes(imported.ratio >= TARGETS.importRatio),
    ],
    ['service peak RSS', `${results.service_peak_rss_mb} MB`, '', '', '', ''],
    [
      'tracing on: lookup',
      `${tracing.lookup.rps_on} req/s, p99 ${tracing.lookup.p99_ms_on} ms`,
      `${tracing.lookup.rps_off} req/s, p99 ${tracing.lookup.p99_ms_off} ms (tracing off)`,
      `${tracing.lookup.ratio}`,
      '',
      '',
    ],
    [
      'tracing on: check',
      `${tracing.check.rps_on} req/s, p99 ${tracing.check.p99_ms_on} ms`,
      `${tracing.check.rps_off} req/s, p99 ${tracing.check.p99_ms_off} ms (tracing off)`,
      `${tracing.check.ratio}`,
      '',
      '',
    ],
    [
      'tracing on: ingest, of its no-op',
      `${tracing.ingest.events_per_s} events/s, ${tracing.ingest.ratio} of ${tracing.ingest.baseline_jobs_per_s} jobs/s`,
      `${tracing.ingest.ratio_off} of the no-op with tracing off`,
      `${round3(tracing.ingest.ratio / tracing.ingest.ratio_off)}`,
      '',
      '',
    ],
  ];
}

export const SUMMARY_HEADER = ['figure', 'service', 'baseline', 'ratio', 'target', 'met'];
