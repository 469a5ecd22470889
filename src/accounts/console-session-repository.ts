import { newId } from '../domain/ids.js';
import type { Queryable } from '../db/database.js';

export interface NewConsoleSession {
  tokenHash: Buffer;
  accountId: string;
  apiKeyId: string;
  csrfToken: string;
  ttlMs: number;
}

export interface ConsoleSession {
  id: string;
  accountId: string;
  accountName: string;
  apiKeyId: string;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * Stores a new session and deletes every expired one. Sign-ins are rare, and the expired rows are a
 * range of `console_sessions_expires_at_idx`, so this costs a sign-in little and needs no sweeper
 * process; the table holds at most the sessions begun within one lifetime.
 */
export async function createConsoleSession(db: Queryable, session: NewConsoleSession): Promise<ConsoleSession> {
  await db.query({ name: 'console-sessions-expire', text: 'DELETE FROM console_sessions WHERE expires_at <= now()' });
  const id = newId();
  const { rows } = await db.query<{ expires_at: Date; account_name: string }>({
    name: 'console-session-insert',
    text: `INSERT INTO console_sessions (id, token_hash, account_id, api_key_id, csrf_token, expires_at)
           VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
           RETURNING expires_at, (SELECT name FROM accounts WHERE id = $3) AS account_name`,
    values: [id, session.tokenHash, session.accountId, session.apiKeyId, session.csrfToken, session.ttlMs],
  });
  const row = rows[0]!;
  return {
    id,
    accountId: session.accountId,
    accountName: row.account_name,
    apiKeyId: session.apiKeyId,
    csrfToken: session.csrfToken,
    expiresAt: row.expires_at,
  };
}

/** The session of this cookie while it is unexpired and its key is not revoked; null otherwise. */
export async function findConsoleSession(db: Queryable, tokenHash: Buffer): Promise<ConsoleSession | null> {
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    account_name: string;
    api_key_id: string;
    csrf_token: string;
    expires_at: Date;
  }>({
    name: 'console-session-by-hash',
    text: `SELECT s.id, s.account_id, a.name AS account_name, s.api_key_id, s.csrf_token, s.expires_at
           FROM console_sessions s
           JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
           JOIN accounts a ON a.id = s.account_id
           WHERE s.token_hash = $1 AND s.expires_at > now()`,
    values: [tokenHash],
  });
  const row = rows[0];
  return row
    ? {
        id: row.id,
        accountId: row.account_id,
        accountName: row.account_name,
        apiKeyId: row.api_key_id,
        csrfToken: row.csrf_token,
        expiresAt: row.expires_at,
      }
    : null;
}

/** Signs a session out: its row is deleted, so its cookie is refused from now on. */
export async function deleteConsoleSession(db: Queryable, id: string): Promise<void> {
  await db.query({ name: 'console-session-delete', text: 'DELETE FROM console_sessions WHERE id = $1', values: [id] });
}
