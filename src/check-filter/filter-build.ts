import type pg from 'pg';
import Cursor from 'pg-cursor';
import { KeyFilter } from './key-filter.js';
import { parseSnapshot, type Snapshot } from './snapshot.js';

/** Rows fetched at a time while the table is streamed: about 1 MB, and a few milliseconds of hashing. */
const BATCH = 10_000;

/** Below this many rows the keys are counted; above, the planner's estimate is close enough to size by. */
const COUNT_BELOW = 1_000_000;

/**
 * The keys the table holds, to size a filter by: an entry's own key, and a second for an entry of
 * a named scope. Counted when small, estimated from the statistics when large.
 */
export async function expectedKeys(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ entries: number; scoped: number }>(
    `SELECT greatest(reltuples, 0)::float8 AS entries,
            (SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = 'suppressions_account_scope_id_idx'::regclass) AS scoped
     FROM pg_class WHERE oid = 'suppressions'::regclass`,
  );
  const estimate = rows[0] ?? { entries: 0, scoped: 0 };
  if (estimate.entries >= COUNT_BELOW) return estimate.entries + estimate.scoped;
  const counted = await client.query<{ keys: string }>(
    `SELECT (count(*) + count(*) FILTER (WHERE scope <> ''))::text AS keys FROM suppressions`,
  );
  return Number(counted.rows[0]?.keys ?? 0);
}

export interface Built {
  /** The snapshot the table was read in: the changes to read next are those it did not see. */
  snapshot: Snapshot;
  serverStart: string;
  prunedBelow: string;
  rows: number;
}

/**
 * Streams every entry's key into `filter`, in one REPEATABLE READ transaction: the snapshot it
 * returns is the one the rows were read in. `client` is the build's own connection, with no
 * statement timeout for the stream. Between batches the event loop serves requests.
 */
export async function streamKeys(client: pg.ClientBase, filter: KeyFilter): Promise<Built> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    const { rows } = await client.query<{ snapshot: string; server_start: string; pruned_below: string }>(
      `SELECT pg_current_snapshot()::text AS snapshot, pg_postmaster_start_time()::text AS server_start,
              (SELECT below::text FROM suppression_key_changes_pruned) AS pruned_below`,
    );
    const head = rows[0];
    if (!head) throw new Error('no snapshot');
    const cursor = client.query(
      new Cursor<string[]>('SELECT account_id::text, scope, email FROM suppressions', [], { rowMode: 'array' }),
    );
    let count = 0;
    try {
      for (;;) {
        const batch = await cursor.read(BATCH);
        for (const [accountId, scope, email] of batch)
          filter.add(accountId as string, scope as string, email as string);
        count += batch.length;
        if (batch.length < BATCH) break;
      }
    } finally {
      await cursor.close();
    }
    await client.query('COMMIT');
    return {
      snapshot: parseSnapshot(head.snapshot),
      serverStart: head.server_start,
      prunedBelow: head.pruned_below,
      rows: count,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A filter sized for the table as it is now. */
export async function sizedFilter(client: pg.ClientBase): Promise<KeyFilter> {
  return new KeyFilter(await expectedKeys(client));
}
