import type { Queryable } from '../db/database.js';

/** How long the key changes are kept: a process that has not read them within this time builds its filter again. */
export const CHANGE_RETENTION = '1 hour';

/** One process of many prunes at a time (an id of the service's own, as the migrations' lock). */
const PRUNE_LOCK_ID = 7_300_111_202_626;

/**
 * Deletes the changes older than the retention and raises the mark below which changes may be
 * gone, in one statement, so that a reader sees both or neither. The bound never passes a
 * transaction still running (the snapshot's xmin), whose changes are yet to be read; and it stops
 * at the oldest change recorded within the retention, so the recent ones are kept whatever their id.
 * Returns the rows deleted, or null when another process was pruning.
 */
export async function pruneKeyChanges(db: Queryable, retention: string = CHANGE_RETENTION): Promise<number | null> {
  const { rows } = await db.query<{ deleted: string }>({
    text: `
      WITH locked AS (SELECT pg_try_advisory_xact_lock($1) AS ok),
      bound AS (
        SELECT least(
                 pg_snapshot_xmin(pg_current_snapshot()),
                 coalesce((SELECT min(xid) FROM suppression_key_changes WHERE recorded_at > clock_timestamp() - $2::interval),
                          pg_snapshot_xmin(pg_current_snapshot()))
               ) AS below
        FROM locked WHERE ok
      ),
      pruned AS (DELETE FROM suppression_key_changes WHERE xid < (SELECT below FROM bound) RETURNING 1)
      UPDATE suppression_key_changes_pruned SET below = greatest(below, (SELECT below FROM bound))
      WHERE EXISTS (SELECT 1 FROM bound)
      RETURNING (SELECT count(*) FROM pruned)::text AS deleted`,
    values: [PRUNE_LOCK_ID, retention],
  });
  return rows[0] ? Number(rows[0].deleted) : null;
}

/**
 * The keys added and removed (and the allowlists changed) committed since `base` that the filter
 * has not read: how far behind it is.
 */
export async function changesSince(db: Queryable, base: { xmin: string; text: string }): Promise<number> {
  const { rows } = await db.query<{ behind: string }>({
    name: 'check-filter-changes-behind',
    text: `SELECT coalesce(sum(CASE WHEN removed > 0 THEN removed ELSE coalesce(cardinality(emails), 0) END
                                 + coalesce(cardinality(allowlist_account_ids), 0)), 0)::text AS behind
           FROM suppression_key_changes WHERE xid >= $1::xid8 AND NOT pg_visible_in_snapshot(xid, $2::pg_snapshot)`,
    values: [base.xmin, base.text],
  });
  return Number(rows[0]?.behind ?? 0);
}
