import { generateToken, hashToken, type Permission } from './api-key-token.js';
import { newId } from '../domain/ids.js';
import { ensureAccount } from './account-repository.js';
import type { Database, Queryable } from '../db/database.js';

export interface ApiKeyCredentials {
  keyId: string;
  accountId: string;
  permission: Permission;
  revoked: boolean;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  accountId: string;
  accountName: string;
  permission: Permission;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export async function insertApiKey(
  db: Queryable,
  key: { accountId: string; name: string; permission: Permission; tokenHash: Buffer },
): Promise<string> {
  const id = newId();
  await db.query({
    text: 'INSERT INTO api_keys (id, account_id, name, token_hash, permission) VALUES ($1, $2, $3, $4, $5)',
    values: [id, key.accountId, key.name, key.tokenHash, key.permission],
  });
  return id;
}

export async function findApiKeyByHash(db: Queryable, tokenHash: Buffer): Promise<ApiKeyCredentials | null> {
  const { rows } = await db.query<{ id: string; account_id: string; permission: Permission; revoked: boolean }>({
    name: 'api-key-by-hash',
    text: 'SELECT id, account_id, permission, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE token_hash = $1',
    values: [tokenHash],
  });
  const row = rows[0];
  return row ? { keyId: row.id, accountId: row.account_id, permission: row.permission, revoked: row.revoked } : null;
}

/**
 * Records that a key was used. `last_used_at` is kept to the minute: a key in steady use is written
 * (a row version and a WAL flush) once a minute, not on every key lookup.
 */
export async function touchApiKey(db: Queryable, keyId: string): Promise<void> {
  await db.query({
    name: 'api-key-touch',
    text: "UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
    values: [keyId],
  });
}

export async function listApiKeys(db: Queryable, accountId?: string): Promise<ApiKeySummary[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    account_id: string;
    account_name: string;
    permission: Permission;
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
  }>({
    text: `SELECT k.id, k.name, k.account_id, a.name AS account_name, k.permission, k.created_at, k.last_used_at, k.revoked_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id
           WHERE $1::uuid IS NULL OR k.account_id = $1
           ORDER BY a.name, k.id`,
    values: [accountId ?? null],
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    accountId: row.account_id,
    accountName: row.account_name,
    permission: row.permission,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }));
}

/** Marks the key revoked; false when no such key exists. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Queryable, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query({
    text: 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1',
    values: [keyId],
  });
  return rowCount === 1;
}

export async function hasUsableApiKey(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>({
    text: `SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL AND permission = 'full_access') AS exists`,
  });
  return rows[0]?.exists === true;
}

export interface IssuedApiKey {
  accountId: string;
  keyId: string;
  /** The secret itself: shown once, only its hash is kept. */
  token: string;
}

/** Creates the account if needed and a new key for it, in one transaction. */
export async function issueApiKey(
  db: Database,
  request: { accountName: string; permission: Permission; name: string },
): Promise<IssuedApiKey> {
  return db.withTransaction(async (client) => {
    const account = await ensureAccount(client, request.accountName);
    const token = generateToken();
    const keyId = await insertApiKey(client, {
      accountId: account.id,
      name: request.name,
      permission: request.permission,
      tokenHash: hashToken(token),
    });
    return { accountId: account.id, keyId, token };
  });
}
