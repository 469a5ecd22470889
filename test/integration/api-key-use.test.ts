import { describe, expect, it } from 'vitest';
import { listApiKeys, touchApiKey } from '../../src/accounts/api-key-repository.js';
import { newAccount } from '../support/accounts.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

async function lastUsedAt(keyId: string): Promise<Date | null> {
  const key = (await listApiKeys(database.db)).find((summary) => summary.id === keyId);
  if (!key) throw new Error(`key ${keyId} not listed`);
  return key.lastUsedAt;
}

/** The row version of a key: it changes whenever the row is written. */
async function rowVersion(keyId: string): Promise<string | undefined> {
  const { rows } = await database.db.pool.query<{ xmin: string }>('SELECT xmin FROM api_keys WHERE id = $1', [keyId]);
  return rows[0]?.xmin;
}

describe('recording key use', () => {
  it('when a key is used for the first time, then its last use is recorded', async () => {
    const { keyId } = await newAccount(database.db);

    expect(await lastUsedAt(keyId)).toBeNull();

    await touchApiKey(database.db, keyId);

    expect(await lastUsedAt(keyId)).toBeInstanceOf(Date);
  });

  it('when a key is used again within the minute, then the row is not written again', async () => {
    const { keyId } = await newAccount(database.db);
    await touchApiKey(database.db, keyId);
    const first = await lastUsedAt(keyId);
    const before = await rowVersion(keyId);

    await touchApiKey(database.db, keyId);

    expect(before).toBeDefined();
    expect(await rowVersion(keyId)).toBe(before);
    expect(await lastUsedAt(keyId)).toEqual(first);
  });

  it('when the last recorded use is over a minute old, then it moves to now', async () => {
    const { keyId } = await newAccount(database.db);
    await database.db.pool.query("UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1", [
      keyId,
    ]);
    const stale = await lastUsedAt(keyId);

    await touchApiKey(database.db, keyId);

    const fresh = await lastUsedAt(keyId);

    expect(fresh!.getTime() - stale!.getTime()).toBeGreaterThanOrEqual(110_000);
  });
});
