import type { Queryable } from '../db/database.js';

/**
 * The SQL that decides whether an event from outside is new: it is when its receipt can be written
 * to `event_receipts`, whose key is (account_id, event_id). A concurrent statement writing the same
 * receipt makes the other wait for it and then find it, so two workers never both apply one event.
 *
 * Events recorded before the audit trail was partitioned (migration 0017) have no receipt; the
 * legacy partition's own key finds them. Its bound comes in as a parameter (`legacyBound`, see
 * legacyReceiptsBound) rather than as a subquery, so that the planner prunes every month partition
 * when it plans the statement: planned over all of them, a batch's plan would grow with the trail.
 *
 * Receipts go with the month partition of their event when the audit retention drops it
 * (src/events/audit-partitions.ts): an event redelivered after that is recorded as a new one.
 */
export const NOT_RECORDED_BEFORE_PARTITIONING = (
  accountId: string,
  eventId: string,
  legacyBound: string,
): string => `NOT EXISTS (
    SELECT 1 FROM suppression_events legacy
    WHERE legacy.account_id = ${accountId} AND legacy.event_id = ${eventId}
      AND legacy.received_at < ${legacyBound}::timestamptz)`;

// The bound only ever moves once, from the month after partitioning to '-infinity' when the legacy
// partition is retired; until then it is read again now and then, so a process started before the
// retirement stops probing a partition that is gone. A stale date is still correct: nothing that
// is not a duplicate lies below it.
const REREAD_AFTER_MS = 60_000;
const bounds = new WeakMap<Queryable, { value: string; readAt: number }>();

/** The `received_at` below which records may lack a receipt: '-infinity' once no legacy partition is left. */
export async function legacyReceiptsBound(db: Queryable): Promise<string> {
  const known = bounds.get(db);
  if (known && (known.value === '-infinity' || Date.now() - known.readAt < REREAD_AFTER_MS)) return known.value;
  const { rows } = await db.query<{ bound: string }>({
    text: `SELECT legacy_until::text AS bound FROM month_partitioning WHERE parent = 'suppression_events'`,
  });
  const value = rows[0]?.bound ?? '-infinity';
  bounds.set(db, { value, readAt: Date.now() });
  return value;
}
