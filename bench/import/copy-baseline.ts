/**
 * The database's own limit for an import: the rows the import stores, sent by bare `COPY`s into the
 * same migrated tables (their indexes and triggers included), with nothing checked. An imported
 * entry is two rows: the entry in `suppressions` and its `addition` record in the audit trail,
 * which says who added it. The entries alone are copied too, for comparison with runs from before
 * imports were recorded in the history.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { copyIn } from '../common/copy-in.js';
import { benchAddress } from './bench-addresses.js';

export interface CopyRate {
  elapsedMs: number;
  /** Imported entries a second: an entry and its record count as one. */
  rowsPerSecond: number;
}

export interface CopyMeasurement {
  rows: number;
  /** The entries and their addition records, as the import stores them. */
  withRecords: CopyRate;
  /** The entries alone. */
  entriesOnly: CopyRate;
}

/**
 * Writes every dirty page out, so that the measured part after it starts from the same state
 * whatever ran before: the pages left dirty by the part before are otherwise written during this
 * one, and the first change to each page after a checkpoint puts a whole-page image in the WAL.
 */
export async function checkpoint(client: Pick<pg.Pool, 'query'>): Promise<void> {
  await client.query('CHECKPOINT');
}

/** Lines of `COPY ... (FORMAT text)`, a thousand per chunk. */
function* chunked(rows: number, line: (index: number) => string): Generator<string> {
  let chunk = '';
  for (let index = 0; index < rows; index += 1) {
    chunk += line(index);
    if (index % 1000 === 999) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Copies the import's rows in, timed from the first row generated to the end of the last COPY:
 * the entries (id, account, address, origin, as the batch worker writes them) and, with
 * `withRecords`, each one's addition record (written after the entries, as the import's statement
 * does, with the ids it gave them).
 */
async function timedCopy(
  client: pg.PoolClient,
  accountId: string,
  rows: number,
  withRecords: boolean,
): Promise<CopyRate> {
  await client.query('TRUNCATE suppressions, suppression_events');
  await checkpoint(client);
  const startedAt = performance.now();
  const ids = withRecords ? new Array<string>(rows) : [];
  await copyIn(
    client,
    'COPY suppressions (id, account_id, email, origin) FROM STDIN',
    chunked(rows, (index) => {
      const id = newId();
      if (withRecords) ids[index] = id;
      return `${id}\t${accountId}\t${benchAddress(index)}\tmanual\n`;
    }),
  );
  if (withRecords) {
    await copyIn(
      client,
      `COPY suppression_events (account_id, event_id, type, email, suppression_id, outcome, actor_type)
       FROM STDIN`,
      chunked(
        rows,
        (index) =>
          `${accountId}\t${newId()}\taddition\t${benchAddress(index)}\t${ids[index] as string}\tsuppressed\tqueue\n`,
      ),
    );
  }
  const elapsedMs = performance.now() - startedAt;
  return { elapsedMs, rowsPerSecond: rows / (elapsedMs / 1000) };
}

/** Empties the tables and copies the import's rows in, the entries alone and then with their records. */
export async function measureBareCopy(db: Database, accountId: string, rows: number): Promise<CopyMeasurement> {
  const client = await db.pool.connect();
  try {
    // A million rows take longer than the pool's statement timeout, which is for requests.
    await client.query('SET statement_timeout = 0');
    const entriesOnly = await timedCopy(client, accountId, rows, false);
    const withRecords = await timedCopy(client, accountId, rows, true);
    return { rows, withRecords, entriesOnly };
  } finally {
    await client.query('RESET statement_timeout').catch(() => undefined);
    client.release();
  }
}
