import type { Queryable } from '../db/database.js';

export interface BounceCounts {
  total: number;
  byCategory: { category: string; count: number }[];
  byReason: { reason: string; count: number }[];
  senderBlockedDomains: { domain: string; count: number }[];
  byDay: { day: string; category: string; count: number }[];
  /** What the bounces of each category did when they were recorded: their `outcome`. */
  byOutcome: { category: string; outcome: string; count: number }[];
}

/**
 * An account's bounces received in [since, until): by category and recorded outcome (a bounce
 * recorded before bounces were classified counts as `unknown`), by reason, by UTC day and
 * category, and the recipient domains with the most `sender_blocked` bounces. Read through the
 * partial index on the account's bounces by `received_at`, in one statement.
 */
export async function countBounces(
  db: Queryable,
  accountId: string,
  since: Date,
  until: Date,
  topDomains: number,
): Promise<BounceCounts> {
  const { rows } = await db.query<{ kind: string; key: string; category: string | null; count: number }>({
    name: 'bounce-summary',
    text: `WITH bounces AS (
             SELECT COALESCE(bounce_category, 'unknown') AS category, COALESCE(bounce_reason, 'unclassified') AS reason,
                    email, outcome, received_at
             FROM suppression_events
             WHERE account_id = $1 AND type = 'bounce' AND received_at >= $2 AND received_at < $3
           )
           SELECT 'outcome' AS kind, outcome AS key, category, count(*)::int AS count FROM bounces GROUP BY 2, 3
           UNION ALL
           SELECT 'reason', reason, NULL, count(*)::int FROM bounces GROUP BY reason
           UNION ALL
           SELECT 'day', to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), category, count(*)::int
           FROM bounces GROUP BY 2, 3
           UNION ALL
           (SELECT 'domain', split_part(email, '@', 2), NULL, count(*)::int FROM bounces
            WHERE category = 'sender_blocked' GROUP BY 2 ORDER BY 4 DESC, 2 LIMIT $4)`,
    values: [accountId, since, until, topDomains],
  });
  const of = (kind: string) => rows.filter((row) => row.kind === kind);
  const byOutcome = of('outcome').map((row) => ({
    category: row.category ?? 'unknown',
    outcome: row.key,
    count: row.count,
  }));
  // The categories' counts are their outcomes' sums: one grouping of the bounces serves both.
  const byCategory = new Map<string, number>();
  for (const row of byOutcome) byCategory.set(row.category, (byCategory.get(row.category) ?? 0) + row.count);
  return {
    total: byOutcome.reduce((sum, row) => sum + row.count, 0),
    byCategory: [...byCategory].map(([category, count]) => ({ category, count })),
    byReason: of('reason').map((row) => ({ reason: row.key, count: row.count })),
    senderBlockedDomains: of('domain').map((row) => ({ domain: row.key, count: row.count })),
    byDay: of('day').map((row) => ({ day: row.key, category: row.category ?? 'unknown', count: row.count })),
    byOutcome,
  };
}
