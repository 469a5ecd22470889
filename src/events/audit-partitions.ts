import type { Queue } from 'bullmq';
import type { Database, Queryable } from '../db/database.js';
import { KEEP_COMPLETED, KEEP_FAILED } from '../queues.js';

/**
 * The audit trail (`suppression_events`) is partitioned by the UTC month a record was received in
 * (migration 0017). This maintenance job creates the partitions ahead, and, with a retention set,
 * drops the ones wholly past it: whole tables, never row by row. Before a month goes, the records
 * that explain a current entry (its deciding bounce or complaint, or its addition) are copied to
 * `suppression_events_kept`, in the same transaction that detaches the month, so that a record is
 * always in exactly one of the two; readers see both through the view `suppression_audit_trail`.
 */
export const AUDIT_PARTITIONS_JOB = 'audit-partitions';
/** Hourly: the migration and each run create the next month's partition, so a run can be missed for weeks. */
export const AUDIT_PARTITIONS_EVERY_MS = 3_600_000;
/** How long a detach waits for the readers and writers of the trail before this run gives up (the next one retries). */
const DETACH_LOCK_TIMEOUT = '5s';

const MONTH_PARTITION = /^suppression_events_(\d{4})_(\d{2})$/;
const EXPIRED_SUFFIX = '_expired';

export interface AuditPartitionsResult {
  created: string[];
  dropped: string[];
  /** Records copied to the kept table from the dropped months. */
  kept: number;
}

/** Creates this month's and next month's partitions when they are missing; returns the names created. */
export async function createAuditPartitions(db: Queryable, now: Date = new Date()): Promise<string[]> {
  const { rows } = await db.query<{ name: string | null }>({
    text: `SELECT create_audit_partition(month) AS name
           FROM unnest(ARRAY[$1::timestamptz, $1::timestamptz + interval '1 month']) AS month`,
    values: [now],
  });
  return rows.flatMap((row) => (row.name === null ? [] : [row.name]));
}

interface Partition {
  name: string;
  /** Records received before this time only. */
  until: Date;
}

async function attachedPartitions(db: Queryable): Promise<Partition[]> {
  const { rows } = await db.query<{ name: string; legacy_until: Date }>({
    text: `SELECT c.relname AS name, (SELECT legacy_until FROM audit_partitioning) AS legacy_until
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'suppression_events'::regclass`,
    values: [],
  });
  return rows.flatMap((row): Partition[] => {
    if (row.name === 'suppression_events_legacy') return [{ name: row.name, until: row.legacy_until }];
    const month = MONTH_PARTITION.exec(row.name);
    if (!month) return [];
    return [{ name: row.name, until: new Date(Date.UTC(Number(month[1]), Number(month[2]), 1)) }];
  });
}

/**
 * Copies the month's explaining records to the kept table and detaches the month, in one
 * transaction; the detached table is renamed so that a run cut short after this finds it again.
 */
async function retire(db: Database, partition: Partition): Promise<number> {
  return db.withTransaction(async (client) => {
    await client.query(`SET LOCAL statement_timeout = 0`);
    const { rowCount } = await client.query(
      `INSERT INTO suppression_events_kept
       SELECT e.* FROM "${partition.name}" e
       WHERE e.outcome IN ('suppressed', 'suppressed_soft_bounce_threshold')
         AND EXISTS (SELECT 1 FROM suppressions s WHERE s.id = e.suppression_id)
       ON CONFLICT DO NOTHING`,
    );
    await client.query(`SET LOCAL lock_timeout = '${DETACH_LOCK_TIMEOUT}'`);
    await client.query(`ALTER TABLE suppression_events DETACH PARTITION "${partition.name}"`);
    await client.query(`ALTER TABLE "${partition.name}" RENAME TO "${partition.name}${EXPIRED_SUFFIX}"`);
    if (partition.name === 'suppression_events_legacy') {
      await client.query(`UPDATE audit_partitioning SET legacy_until = '-infinity'`);
    }
    return rowCount ?? 0;
  });
}

/** Drops the detached months, with the receipts of their events: past the retention, a redelivery is a new event. */
async function dropRetired(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>({
    text: `SELECT relname AS name FROM pg_class
           WHERE relkind = 'r' AND relname LIKE 'suppression\\_events\\_%${EXPIRED_SUFFIX}'
             AND NOT relispartition`,
    values: [],
  });
  for (const { name } of rows) {
    await db.withTransaction(async (client) => {
      await client.query(`SET LOCAL statement_timeout = 0`);
      await client.query(
        `DELETE FROM event_receipts r USING "${name}" e WHERE r.account_id = e.account_id AND r.event_id = e.event_id`,
      );
      await client.query(`DROP TABLE "${name}"`);
    });
  }
  return rows.map((row) => row.name.slice(0, -EXPIRED_SUFFIX.length));
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

/**
 * One run: partitions ahead, then, when `retentionDays` is set, every partition whose records were
 * all received more than that many days ago is retired and dropped.
 */
export async function maintainAuditPartitions(
  db: Database,
  retentionDays: number | undefined,
  now: Date = new Date(),
): Promise<AuditPartitionsResult> {
  const created = await createAuditPartitions(db, now);
  if (retentionDays === undefined) return { created, dropped: [], kept: 0 };
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  const expired = (await attachedPartitions(db)).filter((partition) => partition.until.getTime() <= cutoff);
  let kept = 0;
  for (const partition of expired) kept += await retire(db, partition);
  const dropped = await dropRetired(db);
  if (dropped.length > 0) await pruneKept(db);
  return { created, dropped, kept };
}

/** Registers the hourly run's job scheduler (idempotent, as the expiry sweep's). */
export async function scheduleAuditPartitions(
  queue: Queue,
  everyMs: number = AUDIT_PARTITIONS_EVERY_MS,
): Promise<void> {
  await queue.upsertJobScheduler(
    AUDIT_PARTITIONS_JOB,
    { every: everyMs },
    {
      name: AUDIT_PARTITIONS_JOB,
      data: {},
      opts: { attempts: 1, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
    },
  );
}
