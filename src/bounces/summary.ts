import type { Queryable } from '../db/database.js';
import { countBounces } from './summary-repository.js';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../domain/bounce-categories.js';
import type { BounceSummary } from '../contract/bounces.js';
import { SUMMARY_TOP_DOMAINS } from '../contract/limits.js';
import { BOUNCE_OUTCOMES, type BounceOutcome, type OutcomesByCategory } from '../contract/bounce-outcomes.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The period a summary covers when none is asked for. */
export const SUMMARY_DEFAULT_MS = DAY_MS;

type Counts = Record<BounceCategory, number>;

const zeros = (): Counts => Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, 0])) as Counts;

/** A recorded category as the summary counts it: one it does not know is `unknown`. */
const categoryOf = (category: string): BounceCategory =>
  (BOUNCE_CATEGORIES as readonly string[]).includes(category) ? (category as BounceCategory) : 'unknown';

function add(counts: Counts, category: string, count: number): void {
  counts[categoryOf(category)] += count;
}

/** Every category's bounces by recorded outcome, from the repository's rows (every pair named). */
function outcomesOf(rows: readonly { category: string; outcome: string; count: number }[]): OutcomesByCategory {
  const outcomes = Object.fromEntries(
    BOUNCE_CATEGORIES.map((category) => [category, Object.fromEntries(BOUNCE_OUTCOMES.map((outcome) => [outcome, 0]))]),
  ) as OutcomesByCategory;
  for (const row of rows) {
    // A bounce's record never says `removed`; the check keeps a wrong row from making a field of its own.
    if ((BOUNCE_OUTCOMES as readonly string[]).includes(row.outcome)) {
      outcomes[categoryOf(row.category)][row.outcome as BounceOutcome] += row.count;
    }
  }
  return outcomes;
}

/** The UTC days that hold an instant of [since, until), as `YYYY-MM-DD`. */
function daysBetween(since: Date, until: Date): string[] {
  const days: string[] = [];
  for (
    let day = Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate());
    day < until.getTime();
    day += DAY_MS
  ) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

/** What the account's bounces of a period say: `GET /bounces/summary`'s resource. */
export async function bounceSummary(
  db: Queryable,
  accountId: string,
  since: Date,
  until: Date,
): Promise<BounceSummary> {
  const counts = await countBounces(db, accountId, since, until, SUMMARY_TOP_DOMAINS);
  const byCategory = zeros();
  for (const row of counts.byCategory) add(byCategory, row.category, row.count);
  const byDay = new Map(daysBetween(since, until).map((day) => [day, zeros()]));
  for (const row of counts.byDay) {
    const day = byDay.get(row.day);
    if (day) add(day, row.category, row.count);
  }
  return {
    object: 'bounce_summary',
    since: since.toISOString(),
    until: until.toISOString(),
    total: counts.total,
    by_category: byCategory,
    sender_blocked_share: counts.total === 0 ? 0 : byCategory.sender_blocked / counts.total,
    by_reason: Object.fromEntries(
      [...counts.byReason]
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
        .map((row) => [row.reason, row.count]),
    ),
    sender_blocked_domains: counts.senderBlockedDomains,
    by_day: [...byDay].map(([date, dayCounts]) => ({ date, counts: dayCounts })),
    outcomes_by_category: outcomesOf(counts.byOutcome),
  };
}
