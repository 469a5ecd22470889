import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { copyingTemplate } from '../../bench/common/bench-database.js';
import { startDeadline } from '../../bench/common/deadline.js';
import { markdownTable } from '../../bench/common/report.js';
import { QUICK_SIZES, runSuite, type SuiteResults, type SuiteSizes } from '../../bench/api/suite.js';
import { SUMMARY_HEADER, summaryRows } from '../../bench/api/summary.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';

// `npm run bench -- --quick`'s building blocks on tiny sizes: the bench must keep running, whatever the
// speed. Each round of load is a few requests rather than seconds, and the ingest runs one round.
const TINY: SuiteSizes = {
  quick: true,
  api: {
    ...QUICK_SIZES.api,
    lookupRows: 2000,
    accounts: 20,
    keyedAccounts: 5,
    listRows: 2000,
    connections: 5,
    warmupS: 0,
    loadS: 1,
    lookupRounds: 1,
    listRequests: 5,
    batchConnections: 2,
    batchS: 1,
    checkConnections: 2,
    checkS: 1,
    requestsPerRound: 20,
  },
  ingestEvents: 500,
  ingestRounds: 1,
  importAddresses: 2000,
  clientAddresses: 2500,
};

describe('bench building blocks', () => {
  // The traced ingest runs the service's code in this process with OpenTelemetry's SDK, and its
  // shutdown leaves the SDK registered and the code's tracers (the queues' telemetry) bound to it.
  // The next file of the worker then loads the code afresh and may register an SDK of its own.
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
    vi.resetModules();
  });

  // The deadline is there so that a block that hangs fails with its name, not to time the blocks.
  it('when run, then every block reports positive figures in the latest.json shape', { timeout: 160_000 }, async () => {
    const config = loadConfig({ ...process.env, DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl') });
    const deadline = startDeadline(150_000, 'bench blocks test');
    try {
      // Every block's database is a copy of the suite's migrated template.
      const saved: string[][] = [];
      const run = await copyingTemplate(config.DATABASE_URL, inject('templateDatabase'), () =>
        runSuite(config, TINY, createLogger('silent'), deadline, undefined, (soFar) => {
          saved.push(Object.keys(soFar).sort());
        }),
      );
      expect(run.unfinished).toEqual([]);
      // After each of the four blocks, the figures so far were handed over to be written.
      expect(saved).toHaveLength(4);
      expect(saved[0]).toContain('lookup');
      expect(saved[0]).not.toContain('import');
      const results = run as Required<SuiteResults>;
      expect(Object.keys(results).sort()).toEqual(
        [
          'batch_add',
          'check',
          'client',
          'cpus',
          'import',
          'ingest',
          'list',
          'lookup',
          'node',
          'quick',
          'service_peak_rss_mb',
          'tracing',
          'unfinished',
          'when',
        ].sort(),
      );
      expect(Object.keys(results.lookup).sort()).toEqual(
        ['baseline_p99_ms', 'baseline_rps', 'p50_ms', 'p99_ms', 'ratio', 'rps'].sort(),
      );
      expect(Object.keys(results.check).sort()).toEqual([
        'addresses_per_s',
        'baseline_addresses_per_s',
        'ratio',
        'scoped_addresses_per_s',
        'scoped_ratio',
      ]);
      expect(Object.keys(results.list).sort()).toEqual(['deep_page_p50_ms', 'first_page_p50_ms', 'ratio'].sort());
      expect(Object.keys(results.ingest).sort()).toEqual(
        ['baseline_jobs_per_s', 'events', 'events_per_s', 'ratio', 'floor_jobs_per_s', 'floor_ratio'].sort(),
      );
      expect(Object.keys(results.import).sort()).toEqual(
        [
          'addresses',
          'addresses_per_s',
          'peak_rss_mb',
          'copy_rows_per_s',
          'ratio',
          'copy_entries_only_rows_per_s',
          'ratio_entries_only',
        ].sort(),
      );
      expect(Object.keys(results.tracing).sort()).toEqual(['check', 'export_mb', 'exports', 'ingest', 'lookup']);
      expect(results.quick).toBe(true);
      expect(results.ingest.events).toBe(500);
      expect(results.import.addresses).toBe(2000);
      expect(results.client.addresses).toBe(2500);
      const figures = [
        results.lookup.rps,
        results.lookup.baseline_rps,
        results.lookup.p99_ms,
        results.lookup.baseline_p99_ms,
        results.lookup.ratio,
        results.check.addresses_per_s,
        results.check.baseline_addresses_per_s,
        results.check.ratio,
        results.check.scoped_addresses_per_s,
        results.check.scoped_ratio,
        results.client.addresses_per_s,
        results.list.first_page_p50_ms,
        results.list.deep_page_p50_ms,
        results.list.ratio,
        results.batch_add.addresses_per_s,
        results.ingest.events_per_s,
        results.ingest.baseline_jobs_per_s,
        results.ingest.ratio,
        results.ingest.floor_jobs_per_s,
        results.ingest.floor_ratio,
        results.import.addresses_per_s,
        results.import.peak_rss_mb,
        results.import.copy_rows_per_s,
        results.import.ratio,
        results.import.copy_entries_only_rows_per_s,
        results.import.ratio_entries_only,
        results.tracing.lookup.rps_on,
        results.tracing.lookup.rps_off,
        results.tracing.lookup.ratio,
        results.tracing.check.rps_on,
        results.tracing.check.rps_off,
        results.tracing.check.ratio,
        results.tracing.exports,
        results.tracing.ingest?.events_per_s ?? 0,
        results.tracing.ingest?.ratio ?? 0,
        results.service_peak_rss_mb,
      ];
      for (const figure of figures) expect(figure).toBeGreaterThan(0);
      expect(markdownTable(SUMMARY_HEADER, summaryRows(results))).toContain('| lookup');
    } finally {
      deadline.clear();
    }
  });
});
