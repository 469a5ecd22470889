import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { Origin } from '../domain/origins.js';
import type { Suppression } from '../suppressions/suppression.js';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import type { Database } from '../db/database.js';
import { COLUMNS, fromRow, type SuppressionRow } from '../suppressions/suppression-repository.js';

export interface ExportQuery {
  accountId: string;
  origin?: Origin | undefined;
  /** Only the entries of this named scope. */
  scope?: string | undefined;
  /** Rows fetched from the server at a time, and so the most held in memory. Default 1000. */
  batchSize?: number;
}

function exportSql(query: ExportQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [query.accountId];
  let where = 'account_id = $1';
  if (query.origin !== undefined) {
    values.push(query.origin);
    where += ` AND origin = $${values.length}`;
  }
  if (query.scope !== undefined) {
    values.push(query.scope);
    where += ` AND scope = $${values.length}`;
  }
  return {
    text: `SELECT ${COLUMNS} FROM suppressions WHERE ${where} ORDER BY id DESC`,
    values,
  };
}

function translate(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) {
    return new AppError('service_unavailable', undefined, { cause: error });
  }
  return error;
}

/**
 * Every entry of an account (of one origin, if given), newest first as the API lists them, read
 * through a server-side cursor `batchSize` rows at a time: memory stays constant whatever the
 * size, and the next batch is fetched only when the consumer asks for it.
 *
 * The pooled client is taken on the first `next()` and always given back: when the last row has
 * been read, when reading fails, and when the consumer stops early (`break`, or a pipeline whose
 * destination closed, which calls `return()`). A client whose connection failed is discarded.
 */
export async function* streamSuppressions(
  db: Pick<Database, 'pool'>,
  query: ExportQuery,
): AsyncGenerator<Suppression, void, undefined> {
  const batchSize = query.batchSize ?? 1000;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError('batchSize must be a whole number of at least 1');
  const { text, values } = exportSql(query);

  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (error) {
    throw translate(error);
  }
  // A checked-out client has no error listener of the pool's, and an unheard 'error' (the server
  // going away while the consumer is busy) would end the process; the next read reports it instead.
  let connectionLost = false;
  let lose = (): void => undefined;
  const lost = new Promise<void>((resolve) => (lose = resolve));
  const onError = (): void => {
    connectionLost = true;
    lose();
  };
  client.on('error', onError);
  let readFailed = false;
  try {
    // The cursor's portal lives until its last row is read, and a statement timeout would count
    // that whole time, a slow reader's too; a transaction scopes the exemption to this export.
    await client.query('BEGIN READ ONLY');
    await client.query('SET LOCAL statement_timeout = 0');
    const cursor = client.query(new Cursor<SuppressionRow>(text, values));
    let exhausted = false;
    try {
      while (!exhausted) {
        let rows: SuppressionRow[];
        try {
          rows = await cursor.read(batchSize);
        } catch (error) {
          readFailed = true;
          throw error;
        }
        exhausted = rows.length < batchSize;
        for (const row of rows) yield fromRow(row);
      }
    } finally {
      // A failed read has already ended the portal. Closing waits for the server's answer, which a
      // lost connection never gives.
      if (!readFailed && !connectionLost) await Promise.race([cursor.close(), lost]);
    }
  } catch (error) {
    throw translate(error);
  } finally {
    // Read-only, so rolling back loses nothing, and it also ends a transaction a failure aborted.
    let reusable = !connectionLost;
    if (reusable)
      reusable = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
    client.removeListener('error', onError);
    client.release(!reusable);
  }
}
