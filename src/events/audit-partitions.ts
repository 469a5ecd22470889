import type { Database } from '../db/database.js';
import { partitionsBefore, retire, retiredName, retiredOf } from '../db/month-partitions.js';

/**
 * The audit trail (`suppression_events`) is partitioned by the UTC month a record was received in
 * (migration 0017). With a retention set, the months wholly past it are dropped: whole tables,
 * never row by row. Before a month goes, the records that explain a current entry (its deciding
 * bounce or complaint, or its addition) are copied to `suppression_events_kept`, in the same
 * transaction that detaches the month, so that a record is always in exactly one of the two;
 * readers see both through the view `suppression_audit_trail`.
 */
export interface AuditRetentionResult {
  dropped: string[];
  /** Records copied to the kept table from the dropped months. */
  kept: number;
}

/** Copies the month's explaining records to the kept table and detaches the month, in one transaction. */
async function retireMonth(db: Database, name: string): Promise<number> {
  return db.withTransaction(async (client) => {
    await client.query(`SET LOCAL statement_timeout = 0`);
    const { rowCount } = await client.query(
      `INSERT INTO suppression_events_kept
       SELECT e.* FROM "${name}" e
       WHERE e.outcome IN ('suppressed', 'suppressed_soft_bounce_threshold')
         AND EXISTS (SELECT 1 FROM suppressions s WHERE s.id = e.suppression_id)
       ON CONFLICT DO NOTHING`,
    );
    await retire(client, 'suppression_events', name);
    return rowCount ?? 0;
  });
}

/** Drops the detached months, with the receipts of their events: past the retention, a redelivery is a new event. */
async function dropRetired(db: Database): Promise<string[]> {
  const retired = await retiredOf(db, 'suppression_events');
  for (const table of retired) {
    await db.withTransaction(async (client) => {
      await client.query(`SET LOCAL statement_timeout = 0`);
      await client.query(
        `DELETE FROM event_receipts r USING "${table}" e WHERE r.account_id = e.account_id AND r.event_id = e.event_id`,
      );
      await client.query(`DROP TABLE "${table}"`);
    });
  }
  return retired.map(retiredName);
}

/** Kept records whose entry has since been removed explain nothing any more. */
async function pruneKept(db: Database): Promise<void> {
  await db.withTransaction(async (client) => {
    await client.query(`SET LOCAL statement_timeout = 0`);
    await client.query(
      `DELETE FROM suppression_events_kept k
       WHERE NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.id = k.suppression_id)`,
    );
  });
}

/** Retires and drops every month of the audit trail received wholly more than `retentionDays` ago. */
export async function applyAuditRetention(
  db: Database,
  retentionDays: number,
  now: Date = new Date(),
): Promise<AuditRetentionResult> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let kept = 0;
  for (const partition of await partitionsBefore(db, 'suppression_events', cutoff)) {
    kept += await retireMonth(db, partition.name);
  }
  const dropped = await dropRetired(db);
  if (dropped.length > 0) await pruneKept(db);
  return { dropped, kept };
}
