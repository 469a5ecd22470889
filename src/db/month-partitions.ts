import type pg from 'pg';
import type { Queryable } from './database.js';

/**
 * The tables partitioned by UTC month (migrations 0016 to 0018): each has a partition per month,
 * made ahead by `create_month_partition`, and may have a legacy partition holding everything from
 * before it was partitioned. What to do with a month past its retention is each feature's own
 * (src/events/audit-partitions.ts, src/webhooks/log-partitions.ts); this is what they share.
 */
export type MonthPartitioned = 'suppression_events' | 'webhook_deliveries' | 'webhook_attempts';

export const MONTH_PARTITIONED: readonly MonthPartitioned[] = [
  'suppression_events',
  'webhook_deliveries',
  'webhook_attempts',
];

/** The suffix of a partition detached for dropping, so a run cut short finds it again. */
const RETIRED_SUFFIX = '_expired';

export interface Partition {
  name: string;
  /** Rows before this time only. */
  until: Date;
}

/** Creates this month's and next month's partitions of each table when missing; returns the names created. */
export async function createMonthPartitions(
  db: Queryable,
  parents: readonly MonthPartitioned[] = MONTH_PARTITIONED,
  now: Date = new Date(),
): Promise<string[]> {
  const { rows } = await db.query<{ name: string | null }>({
    text: `SELECT create_month_partition(parent, month) AS name
           FROM unnest($1::text[]) AS parent,
                unnest(ARRAY[$2::timestamptz, $2::timestamptz + interval '1 month']) AS month`,
    values: [parents, now],
  });
  return rows.flatMap((row) => (row.name === null ? [] : [row.name]));
}

/** The table's partitions with their upper bounds, oldest first. */
export async function partitionsOf(db: Queryable, parent: MonthPartitioned): Promise<Partition[]> {
  const { rows } = await db.query<{ name: string; bound: string }>({
    text: `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = $1::regclass`,
    values: [parent],
  });
  return rows
    .flatMap((row): Partition[] => {
      const until = /TO \('([^']+)'\)/.exec(row.bound)?.[1];
      return until === undefined ? [] : [{ name: row.name, until: new Date(until) }];
    })
    .sort((a, b) => a.until.getTime() - b.until.getTime());
}

/** Partitions wholly before the cutoff: every row they can hold was received (or made) before it. */
export async function partitionsBefore(db: Queryable, parent: MonthPartitioned, cutoff: Date): Promise<Partition[]> {
  return (await partitionsOf(db, parent)).filter((partition) => partition.until.getTime() <= cutoff.getTime());
}

/**
 * Detaches a partition inside the caller's transaction, waiting at most `lockTimeout` for the
 * table's readers and writers, and renames it for `dropRetired`. A legacy partition going means the
 * table has no rows from before partitioning any more.
 */
export async function retire(
  client: pg.PoolClient,
  parent: MonthPartitioned,
  name: string,
  lockTimeout = '5s',
): Promise<void> {
  await client.query(`SET LOCAL lock_timeout = '${lockTimeout}'`);
  await client.query(`ALTER TABLE ${parent} DETACH PARTITION "${name}"`);
  await client.query(`ALTER TABLE "${name}" RENAME TO "${name}${RETIRED_SUFFIX}"`);
  if (name === `${parent}_legacy`) {
    await client.query({
      text: `UPDATE month_partitioning SET legacy_until = '-infinity' WHERE parent = $1`,
      values: [parent],
    });
  }
}

/** The detached partitions of the table waiting to be dropped. */
export async function retiredOf(db: Queryable, parent: MonthPartitioned): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>({
    text: `SELECT relname AS name FROM pg_class
           WHERE relkind = 'r' AND NOT relispartition
             AND starts_with(relname, $1 || '_') AND right(relname, length($2)) = $2`,
    values: [parent, RETIRED_SUFFIX],
  });
  return rows.map((row) => row.name);
}

/** The partition's name before it was retired. */
export function retiredName(table: string): string {
  return table.endsWith(RETIRED_SUFFIX) ? table.slice(0, -RETIRED_SUFFIX.length) : table;
}
