import type pg from 'pg';
import { parseSnapshot, type Snapshot } from './snapshot.js';

/**
 * One row of `suppression_key_changes`: the keys one statement added; or the entries it removed
 * (`removed` > 0), with their keys when the row names them; or the accounts whose allowlist changed.
 */
export interface KeyChange {
  account_ids: string[] | null;
  emails: string[] | null;
  scopes: string[] | null;
  removed: number;
  allowlist_account_ids: string[] | null;
}

/** What a round read besides the changes, in the same snapshot. */
export interface RoundHead {
  /** The round's snapshot: every transaction it sees is applied once the round is over. */
  snapshot: Snapshot;
  /** When the server started: another start (a restart, a failover) voids what the filter knows of transaction ids. */
  serverStart: string;
  /** Below this transaction id the retention may have deleted changes. */
  prunedBelow: string;
  /** Change rows read. */
  changes: number;
}

/** Change rows a statement returns at most; each holds up to 1,000 keys. */
const PAGE = 100;

interface TailRow extends KeyChange {
  snapshot: string;
  server_start: string;
  pruned_below: string;
  xid: string | null;
  id: string | null;
}

/**
 * The changes of the transactions `base` did not see and this statement's snapshot does, in
 * (xid, id) order after a position, with that snapshot: in READ COMMITTED a statement reads with one
 * snapshot, and `pg_current_snapshot()` is that snapshot. At least one row, for the snapshot.
 */
const TAIL_SQL = `
SELECT pg_current_snapshot()::text AS snapshot, pg_postmaster_start_time()::text AS server_start,
       (SELECT below::text FROM suppression_key_changes_pruned) AS pruned_below,
       c.xid::text AS xid, c.id::text AS id, c.account_ids::text[] AS account_ids, c.emails, c.scopes, c.removed,
       c.allowlist_account_ids::text[] AS allowlist_account_ids
FROM (VALUES (1)) AS one (x)
LEFT JOIN LATERAL (
  SELECT * FROM suppression_key_changes
  WHERE xid >= $1::xid8 AND NOT pg_visible_in_snapshot(xid, $2::pg_snapshot) AND (xid, id) > ($3::xid8, $4::bigint)
  ORDER BY xid, id
  LIMIT ${PAGE + 1}
) c ON true`;

function tail(client: pg.ClientBase, base: Snapshot, after: [string, string]): Promise<pg.QueryResult<TailRow>> {
  return client.query<TailRow>({ name: 'check-filter-tail', text: TAIL_SQL, values: [base.xmin, base.text, ...after] });
}

function headOf(row: TailRow | undefined, changes: number): RoundHead {
  if (!row) throw new Error('the tail statement returned no row');
  return {
    snapshot: parseSnapshot(row.snapshot),
    serverStart: row.server_start,
    prunedBelow: row.pruned_below,
    changes,
  };
}

const changesOf = (rows: TailRow[]): TailRow[] => rows.filter((row) => row.xid !== null);

/**
 * One round: hands `apply` every change committed since `base` and returns the snapshot that now
 * covers them. Nearly always one statement. Past a page of changes (a large import just committed)
 * it reads them page by page in one REPEATABLE READ transaction, whose statements share one
 * snapshot, so that the pages neither miss nor repeat a row.
 */
export async function readRound(
  client: pg.ClientBase,
  base: Snapshot,
  apply: (change: KeyChange) => void,
): Promise<RoundHead> {
  const first = await tail(client, base, ['0', '0']);
  const changes = changesOf(first.rows);
  if (changes.length <= PAGE) {
    for (const change of changes) apply(change);
    return headOf(first.rows[0], changes.length);
  }
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    let head: RoundHead | undefined;
    let after: [string, string] = ['0', '0'];
    let read = 0;
    for (;;) {
      const { rows } = await tail(client, base, after);
      head ??= headOf(rows[0], 0);
      const page = changesOf(rows);
      for (const change of page.slice(0, PAGE)) apply(change);
      read += Math.min(page.length, PAGE);
      const last = page[PAGE - 1];
      if (page.length <= PAGE || !last) break;
      after = [last.xid as string, last.id as string];
    }
    await client.query('COMMIT');
    return { ...head, changes: read };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
