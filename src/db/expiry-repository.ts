import type { Queryable } from './database.js';

/**
 * One probe of suppressions_account_created_at_idx per account with an expiry set, in account order:
 * the index range is what is older than the account's shortest expiry, and each entry in it is
 * taken when it is as old as its own origin's expiry (the CASE is null, so never, for an origin
 * without one). Entries of longer-lived origins inside the range are read and passed over on every
 * run; the suppressions_account_origin_id_idx alternative would read every entry of each expiring
 * origin instead, expired or not.
 *
 * The LIMIT inside the probe sits above its row locks, so entries another runner (or an API removal)
 * holds are skipped without counting, and the outer LIMIT stops the probes as soon as a batch is
 * found: nothing past it is read or locked. Locks are taken in (account, creation) order. The audit
 * rows are written by the same statement, so an entry never leaves without its record; the delete
 * fires the outbox trigger, which announces suppression.removed.
 */
const EXPIRE_SQL = `
WITH expired AS (
  SELECT entry.account_id, entry.id
  FROM account_settings settings
  CROSS JOIN LATERAL (
    SELECT s.account_id, s.id FROM suppressions s
    WHERE s.account_id = settings.account_id
      AND s.created_at <= now() - make_interval(days => LEAST(
        settings.expire_bounce_after_days, settings.expire_complaint_after_days, settings.expire_manual_after_days))
      AND s.created_at <= now() - make_interval(days => CASE s.origin
        WHEN 'bounce' THEN settings.expire_bounce_after_days
        WHEN 'complaint' THEN settings.expire_complaint_after_days
        WHEN 'manual' THEN settings.expire_manual_after_days
      END)
    ORDER BY s.created_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  ) AS entry
  WHERE COALESCE(
    settings.expire_bounce_after_days, settings.expire_complaint_after_days, settings.expire_manual_after_days
  ) IS NOT NULL
  ORDER BY settings.account_id
  LIMIT $1
), deleted AS (
  DELETE FROM suppressions s USING expired
  WHERE s.account_id = expired.account_id AND s.id = expired.id
  RETURNING s.account_id, s.id, s.email
), audited AS (
  INSERT INTO suppression_events
    (account_id, event_id, type, email, api_key_id, suppression_id, outcome, removal_reason, received_at)
  SELECT account_id, 'expired-' || id, 'removal', email, NULL, id, 'removed', 'expired', now()
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
