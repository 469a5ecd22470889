/**
 * The database's own limit for an import: the same rows the import writes, sent by a bare `COPY`
 * into the same migrated table (its indexes and triggers included), with nothing checked.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { benchAddress } from './bench-addresses.js';

export interface CopyMeasurement {
  rows: number;
  elapsedMs: number;
  rowsPerSecond: number;
}

/** Rows of `COPY ... (FORMAT text)`, a thousand per chunk: the import's addresses, as manual entries. */
function* copyRows(accountId: string, rows: number): Generator<string> {
  let chunk = '';
  for (let index = 0; index < rows; index += 1) {
    chunk += `${newId()}\t${accountId}\t${benchAddress(index)}\tmanual\n`;
    if (index % 1000 === 999) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Empties `suppressions` and copies the rows in: id, account, address and origin, as the batch
 * worker writes them, timed from the first row generated to the end of the COPY.
 */
export async function measureBareCopy(db: Database, accountId: string, rows: number): Promise<CopyMeasurement> {
  await db.query({ text: 'TRUNCATE suppressions' });
  const client = await db.pool.connect();
  try {
    // A million rows take longer than the pool's statement timeout, which is for requests.
    await client.query('SET statement_timeout = 0');
    const startedAt = performance.now();
    await pipeline(
      Readable.from(copyRows(accountId, rows)),
      client.query(copyFrom('COPY suppressions (id, account_id, email, origin) FROM STDIN')),
    );
    const elapsedMs = performance.now() - startedAt;
    return { rows, elapsedMs, rowsPerSecond: rows / (elapsedMs / 1000) };
  } finally {
    await client.query('RESET statement_timeout').catch(() => undefined);
    client.release();
  }
}
