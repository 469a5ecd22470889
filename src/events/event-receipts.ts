/**
 * The SQL that decides whether an event from outside is new: it is when its receipt can be written
 * to `event_receipts`, whose key is (account_id, event_id). A concurrent statement writing the same
 * receipt makes the other wait for it and then find it, so two workers never both apply one event.
 *
 * Events recorded before the audit trail was partitioned (migration 0017) have no receipt; the
 * legacy partition's own key finds them, and the condition on `received_at` prunes every other
 * partition (all of them once the legacy partition is gone: its bound is then '-infinity').
 *
 * Receipts go with the month partition of their event when the audit retention drops it
 * (src/events/audit-partitions.ts): an event redelivered after that is recorded as a new one.
 */
export const NOT_RECORDED_BEFORE_PARTITIONING = (accountId: string, eventId: string): string => `NOT EXISTS (
    SELECT 1 FROM suppression_events legacy
    WHERE legacy.account_id = ${accountId} AND legacy.event_id = ${eventId}
      AND legacy.received_at < (SELECT legacy_until FROM month_partitioning WHERE parent = 'suppression_events'))`;
