import type { Metrics } from '../metrics.js';
import type { CheckFilterCounters } from './filter-options.js';

/** The filter's counts in the process's metrics. */
export function filterCounters(
  metrics: Pick<
    Metrics,
    'filterFallbacks' | 'filterAnswers' | 'filterBuilds' | 'filterChangesApplied' | 'filterRounds'
  >,
): CheckFilterCounters {
  return {
    fallback: (reason) => metrics.filterFallbacks.inc({ reason }),
    built: (reason) => metrics.filterBuilds.inc({ reason }),
    applied: (changes) => metrics.filterChangesApplied.inc(changes),
    round: () => metrics.filterRounds.inc(),
    answered({ absent, cached = 0, cachedAbsent = 0, confirmed, unconfirmed }) {
      if (absent > 0) metrics.filterAnswers.inc({ answer: 'absent' }, absent);
      if (cached > 0) metrics.filterAnswers.inc({ answer: 'cached' }, cached);
      if (cachedAbsent > 0) metrics.filterAnswers.inc({ answer: 'cached_absent' }, cachedAbsent);
      if (confirmed > 0) metrics.filterAnswers.inc({ answer: 'confirmed' }, confirmed);
      if (unconfirmed > 0) metrics.filterAnswers.inc({ answer: 'unconfirmed' }, unconfirmed);
    },
  };
}
