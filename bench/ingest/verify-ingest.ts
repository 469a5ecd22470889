import type { Queryable } from '../../src/db/database.js';
import { countOutcomes, countRows } from '../common/bench-database.js';
import type { ExpectedOutcome } from '../common/event-fixtures.js';

export interface IngestVerification {
  /** Rows that differ from what the events must produce: the run is wrong, whatever its speed. */
  problems: string[];
  /** Deviations from the design that leave the counts right; reported, not failed on. */
  warnings: string[];
}

/**
 * Compares the database after an ingest of fresh, distinct events with what they must have produced.
 * Under a soft-bounce threshold, which event created an entry depends on the order the workers took
 * them in, so only the rows and the entries' creating events are compared.
 */
export async function verifyIngest(
  db: Queryable,
  expected: ExpectedOutcome,
  underThreshold = false,
): Promise<IngestVerification> {
  const [events, suppressions, outcomes, withoutEntry] = await Promise.all([
    countRows(db, 'suppression_events'),
    countRows(db, 'suppressions'),
    countOutcomes(db),
    db.query<{ count: string }>({
      text: "SELECT count(*) AS count FROM suppression_events WHERE outcome = 'already_suppressed' AND suppression_id IS NULL",
    }),
  ]);
  const created = (outcomes['suppressed'] ?? 0) + (outcomes['suppressed_soft_bounce_threshold'] ?? 0);
  const checks: [string, number, number][] = underThreshold
    ? [
        ['suppression_events rows', events, expected.events],
        [
          'suppressions rows (suppressing pairs and pairs at the soft-bounce threshold)',
          suppressions,
          expected.suppressions,
        ],
        ['events that created an entry', created, expected.suppressions],
      ]
    : [
        ['suppression_events rows', events, expected.events],
        ['suppressions rows (distinct suppressing account/email pairs)', suppressions, expected.suppressions],
        ["events with outcome 'suppressed'", outcomes['suppressed'] ?? 0, expected.suppressions],
        [
          "events with outcome 'already_suppressed'",
          outcomes['already_suppressed'] ?? 0,
          expected.suppressing - expected.suppressions,
        ],
        [
          "events with outcome 'not_suppressed'",
          outcomes['not_suppressed'] ?? 0,
          expected.events - expected.suppressing,
        ],
      ];
  const problems = checks
    .filter(([, actual, wanted]) => actual !== wanted)
    .map(([what, actual, wanted]) => `${what}: ${actual}, expected ${wanted}`);

  // The design links every suppressing event to the entry that suppresses its address; an entry
  // written by another batch in flight (or earlier in the same statement) is not visible to the
  // statement's snapshot, which leaves the link empty although the outcome is right.
  const missing = Number(withoutEntry.rows[0]?.count ?? 0);
  const warnings =
    missing > 0
      ? [
          `${missing} of ${outcomes['already_suppressed'] ?? 0} 'already_suppressed' events have no suppression_id (entry written by a concurrent or the same batch)`,
        ]
      : [];
  return { problems, warnings };
}
