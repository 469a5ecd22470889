import { newId } from '../domain/ids.js';
import type { Queryable } from '../db/database.js';

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  name: string;
  created_at: Date;
}

const fromRow = (row: AccountRow): Account => ({ id: row.id, name: row.name, createdAt: row.created_at });

/** The account with this name, created when it does not exist yet. */
export async function ensureAccount(db: Queryable, name: string): Promise<Account> {
  const { rows } = await db.query<AccountRow>({
    // The no-op update makes RETURNING answer for an existing row too.
    text: `INSERT INTO accounts (id, name) VALUES ($1, $2)
           ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
           RETURNING id, name, created_at`,
    values: [newId(), name],
  });
  return fromRow(rows[0] as AccountRow);
}

/** Looks an account up by its id or, failing that, by its name. */
export async function findAccount(db: Queryable, idOrName: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>({
    text: `SELECT id, name, created_at FROM accounts
           WHERE name = $1 OR id::text = lower($1)
           ORDER BY (name = $1) DESC LIMIT 1`,
    values: [idOrName],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

export async function accountExists(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>({
    name: 'account-exists',
    text: 'SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1) AS exists',
    values: [id],
  });
  return rows[0]?.exists === true;
}
