import { createApp } from '../../api/app.js';
import { listen, type RunningServer } from '../../api/server.js';
import { startCheckFilter, type CheckFilter } from '../../src/check-filter/check-filter.js';
import { filterCounters } from '../../src/check-filter/filter-counters.js';
import type { CheckFilterTuning } from '../../src/check-filter/filter-options.js';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { testConfig, testDeps } from './test-config.js';

/** An API process as `startApi` makes one: its own check filter, counted in its own metrics. */
export interface FilteredApp {
  readonly server: RunningServer;
  readonly filter: CheckFilter;
  readonly metrics: Metrics;
  close(): Promise<void>;
}

/** The filter of one process over `url` (the primary), counted in `metrics`. */
export function startTestFilter(
  database: { url: string; db: Database },
  metrics: Metrics,
  tuning: Partial<CheckFilterTuning> = {},
  url = database.url,
): CheckFilter {
  const filter = startCheckFilter({
    url,
    applicationName: 'check-filter-test',
    statementTimeoutMs: 5000,
    db: database.db,
    logger: createLogger('silent'),
    counters: filterCounters(metrics),
    cacheEntries: testConfig().CHECK_CACHE_ENTRIES,
    // A check waits for its round however loaded the machine: the tests' answers never depend on a clock.
    tuning: { waitMs: 60_000, ...tuning },
  });
  metrics.trackCheckFilter(filter);
  return filter;
}

/**
 * The real app with a filter of its own on the database, on a free port; resolves once the filter
 * is built and current. `db` may be a database whose statements the test counts.
 */
export async function startFilteredApp(
  database: { url: string; db: Database },
  tuning: Partial<CheckFilterTuning> = {},
  db: Database = database.db,
): Promise<FilteredApp> {
  const metrics = createMetrics();
  const filter = startTestFilter(database, metrics, tuning);
  const app = createApp(testConfig(), { ...testDeps({}), db, metrics, checkFilter: filter });
  const server = await listen(app, '127.0.0.1', 0);
  await filter.whenReady();
  return {
    server,
    filter,
    metrics,
    async close() {
      await server.close();
      await filter.close();
    },
  };
}

/** A counter's value for these labels in `metrics`, 0 when it has none. */
export async function counted(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  const wanted = Object.entries(labels);
  return (metric?.values ?? [])
    .filter((value) => wanted.every(([key, label]) => value.labels[key] === label))
    .reduce((sum, value) => sum + value.value, 0);
}
