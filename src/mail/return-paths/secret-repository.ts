import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.js';
import { SECRET_BYTES, SECRET_ID_BYTES } from './token.js';

/** One of an account's return-path secrets. */
export interface StoredReturnPathSecret {
  id: Buffer;
  accountId: string;
  secret: Buffer;
  createdAt: Date;
  /** When a rotation replaced it; null for the account's current secret. */
  retiredAt: Date | null;
  /** Until when it still verifies, once retired; null for the current secret. */
  validUntil: Date | null;
}

interface SecretRow {
  id: Buffer;
  account_id: string;
  secret: Buffer;
  created_at: Date;
  retired_at: Date | null;
  valid_until: Date | null;
}

const COLUMNS = 'id, account_id, secret, created_at, retired_at, valid_until';

const toSecret = (row: SecretRow): StoredReturnPathSecret => ({
  id: row.id,
  accountId: row.account_id,
  secret: row.secret,
  createdAt: row.created_at,
  retiredAt: row.retired_at,
  validUntil: row.valid_until,
});

/**
 * A fresh id is 4 random bytes: one already taken (by any account) makes the insert do nothing,
 * and the next attempt draws another. Past a few attempts something else is wrong.
 */
const ATTEMPTS = 5;

/** The account's current return-path secret, made with its first return path. */
export async function currentReturnPathSecret(db: Queryable, accountId: string): Promise<StoredReturnPathSecret> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { rows } = await db.query<SecretRow>({
      name: 'return-path-secret-current',
      // Nothing made when the account has a current secret (or the id is taken): the current one is
      // read instead. One made by a concurrent first request after this statement began is not
      // seen by it, and the next attempt reads it.
      text: `WITH made AS (
               INSERT INTO return_path_secrets (id, account_id, secret) VALUES ($1, $2, $3)
               ON CONFLICT DO NOTHING RETURNING ${COLUMNS}
             )
             SELECT ${COLUMNS} FROM made
             UNION ALL
             SELECT ${COLUMNS} FROM return_path_secrets WHERE account_id = $2 AND retired_at IS NULL
             LIMIT 1`,
      values: [randomBytes(SECRET_ID_BYTES), accountId, randomBytes(SECRET_BYTES)],
    });
    const row = rows[0];
    if (row !== undefined) return toSecret(row);
  }
  throw new Error(`No return-path secret could be made for account ${accountId}.`);
}

/** A secret by the id a return path carries, current or retired, of whichever account; null when none has it. */
export async function findReturnPathSecret(db: Queryable, id: Uint8Array): Promise<StoredReturnPathSecret | null> {
  const { rows } = await db.query<SecretRow>({
    name: 'return-path-secret-find',
    text: `SELECT ${COLUMNS} FROM return_path_secrets WHERE id = $1`,
    values: [Buffer.from(id)],
  });
  const row = rows[0];
  return row === undefined ? null : toSecret(row);
}

/** When the last of the account's retired secrets that still verify stops verifying; null when none does. */
export async function overlapEnd(db: Queryable, accountId: string, now: Date): Promise<Date | null> {
  const { rows } = await db.query<{ until: Date | null }>({
    name: 'return-path-secret-overlap-end',
    text: 'SELECT max(valid_until) AS until FROM return_path_secrets WHERE account_id = $1 AND valid_until > $2',
    values: [accountId, now],
  });
  return rows[0]?.until ?? null;
}

/**
 * A new current secret for the account. The one it replaces (if any) goes on verifying the return
 * paths made before for `overlapDays`, so that the bounces of mail still in queues count, and then
 * stops. Rotations of one account wait for each other, so each retires the one before.
 */
export async function rotateReturnPathSecret(
  db: Database,
  accountId: string,
  overlapDays: number,
): Promise<{ current: StoredReturnPathSecret; retired: StoredReturnPathSecret | null }> {
  return db.withTransaction(async (client) => {
    // The account's row, locked against other rotations only: foreign-key checks take a key-share lock.
    await client.query({ text: 'SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', values: [accountId] });
    const retired = await client.query<SecretRow>({
      text: `UPDATE return_path_secrets
             SET retired_at = now(), valid_until = now() + make_interval(days => $2)
             WHERE account_id = $1 AND retired_at IS NULL
             RETURNING ${COLUMNS}`,
      values: [accountId, overlapDays],
    });
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const made = await client.query<SecretRow>({
        text: `INSERT INTO return_path_secrets (id, account_id, secret) VALUES ($1, $2, $3)
               ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
        values: [randomBytes(SECRET_ID_BYTES), accountId, randomBytes(SECRET_BYTES)],
      });
      const row = made.rows[0];
      if (row !== undefined) {
        const previous = retired.rows[0];
        return { current: toSecret(row), retired: previous === undefined ? null : toSecret(previous) };
      }
    }
    throw new Error(`No return-path secret could be made for account ${accountId}.`);
  });
}
