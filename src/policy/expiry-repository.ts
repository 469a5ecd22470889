import type { Queryable } from '../db/database.js';

/**
 * One probe of suppressions_account_origin_created_at_idx per (account, origin) with an expiry: the
 * range read is exactly what has expired, oldest first, so nothing that stays is read on any run.
 *
 * The LIMIT inside a probe sits above its row locks, so entries another runner (or an API removal)
 * holds are skipped without counting, and the outer LIMIT stops the probes as soon as a batch is
 * found: nothing past it is read or locked (SKIP LOCKED never waits, so the order of the locks does
 * not matter). The audit rows are written by the same statement, so an entry never leaves without
 * its record; the delete fires the outbox trigger, which announces suppression.removed.
 */
const EXPIRE_SQL = `
WITH rules AS (
  SELECT settings.account_id, rule.origin, rule.days
  FROM account_settings settings
  CROSS JOIN LATERAL (VALUES
    ('bounce', settings.expire_bounce_after_days),
    ('complaint', settings.expire_complaint_after_days),
    ('manual', settings.expire_manual_after_days)
  ) AS rule(origin, days)
  WHERE rule.days IS NOT NULL
), expired AS (
  SELECT entry.account_id, entry.id
  FROM rules
  CROSS JOIN LATERAL (
    SELECT s.account_id, s.id FROM suppressions s
    WHERE s.account_id = rules.account_id AND s.origin = rules.origin
      AND s.created_at <= now() - make_interval(days => rules.days)
    ORDER BY s.created_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  ) AS entry
  LIMIT $1
), deleted AS (
  DELETE FROM suppressions s USING expired
  WHERE s.account_id = expired.account_id AND s.id = expired.id
  RETURNING s.account_id, s.id, s.email, s.scope
), audited AS (
  INSERT INTO suppression_events
    (account_id, event_id, type, email, scope, api_key_id, suppression_id, outcome, removal_reason, received_at,
     actor_type)
  SELECT account_id, 'expired-' || id, 'removal', email, scope, NULL, id, 'removed', 'expired', now(), 'system'
  FROM deleted
)
SELECT count(*)::int AS removed FROM deleted`;

/**
 * Removes up to `batchSize` entries, of any accounts, that are as old as their account's expiry for
 * their origin, each with an audit row (`removal`, reason `expired`). Returns how many it removed;
 * fewer than `batchSize` means none were left but those other runners hold. Safe to run from several
 * processes at once: each entry is removed, and recorded, once.
 */
export async function expireEntries(db: Queryable, batchSize: number): Promise<number> {
  const { rows } = await db.query<{ removed: number }>({
    // Unnamed: a generic plan chosen for one shape of accounts would be kept for every other.
    text: EXPIRE_SQL,
    values: [batchSize],
  });
  return rows[0]?.removed ?? 0;
}
