import { Gauge, type Registry } from 'prom-client';
import { withTimeout } from './with-timeout.js';

/** The check filter's state as it shows it: stated here, since the metrics import no feature. */
export interface FilterStatus {
  ready: boolean;
  keys: number;
  /** The filter's bit set, and the one being built beside it. */
  bytes: number;
  estimatedFalsePositiveRate: number;
  measuredFalsePositiveRate: number;
  /** How long ago the last round that succeeded began: the filter holds every change committed before then. */
  lagSeconds: number;
  /** Entries held in the check's entry cache. */
  cachedEntries: number;
}

/** What the check filter shows at a scrape, read from it. */
export interface FilterReadings {
  status(): FilterStatus;
  /** Keys and removals committed that it has not read; undefined while it is built. */
  changesBehind(): Promise<number | undefined>;
}

/** The filter's state, read at each scrape. */
export function filterGauges(registry: Registry, filter: FilterReadings): void {
  const gauge = (name: string, help: string, read: (status: FilterStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(filter.status()));
      },
    });
  gauge(
    'suppression_filter_ready',
    'Whether the check filter is built (1) or the checks ask the database while it is built (0).',
    (s) => (s.ready ? 1 : 0),
  );
  gauge(
    'suppression_filter_entries',
    'Keys in the check filter: one per entry, two for an entry of a named scope.',
    (s) => s.keys,
  );
  gauge(
    'suppression_filter_bytes',
    'Memory of the check filter’s bit sets, with the one being built beside it during a rebuild.',
    (s) => s.bytes,
  );
  gauge(
    'suppression_filter_false_positive_rate_estimated',
    'The share of keys never added that the check filter answers "maybe", from its size and the keys added.',
    (s) => s.estimatedFalsePositiveRate,
  );
  gauge(
    'suppression_filter_false_positive_rate_measured',
    'Since the check filter was built, the share of the addresses the database did not find that it answered "maybe" (false positives and removed entries).',
    (s) => s.measuredFalsePositiveRate,
  );
  gauge(
    'suppression_filter_lag_seconds',
    'How long ago the check filter’s last round of changes began (or the process started, before it is built): it holds every change committed before then.',
    (s) => s.lagSeconds,
  );
  gauge(
    'suppression_check_cache_entries',
    'What the check found of the filter’s "maybe" addresses (entries, and addresses with none) held to answer it again without a query; bounded by CHECK_CACHE_ENTRIES.',
    (s) => s.cachedEntries,
  );
  new Gauge({
    name: 'suppression_filter_changes_behind',
    help: 'Keys added, entries removed and allowlists changed, committed, that the check filter has not read yet; absent while it is built.',
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const behind = await withTimeout(filter.changesBehind(), 1000);
        if (behind !== undefined) this.set(behind);
      } catch {
        // Readiness reports the database; the metric simply has no fresh sample this time.
      }
    },
  });
}
