import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, listApiKeys, touchApiKey } from '../../src/db/api-key-repository.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

async function lastUsedAt(keyId: string): Promise<Date | null> {
  const key = (await listApiKeys(database.db)).find((summary) => summary.id === keyId);
  if (!key) throw new Error(`key ${keyId} not listed`);
  return key.lastUsedAt;
}

describe('recording key use', () => {
  it('when a key is used for the first time, then its last use is recorded', async () => {
    const key = await issueApiKey(database.db, { accountName: 'first-use', permission: 'full_access', name: 'k' });
    expect(await lastUsedAt(key.keyId)).toBeNull();
    await touchApiKey(database.db, key.keyId);
    expect(await lastUsedAt(key.keyId)).toBeInstanceOf(Date);
  });

  it('when a key is used again within the minute, then the row is not written again', async () => {
    const key = await issueApiKey(database.db, { accountName: 'steady-use', permission: 'full_access', name: 'k' });
    await touchApiKey(database.db, key.keyId);
    const first = await lastUsedAt(key.keyId);
    const { rows: before } = await database.db.pool.query<{ xmin: string }>('SELECT xmin FROM api_keys WHERE id = $1', [
      key.keyId,
    ]);
    await touchApiKey(database.db, key.keyId);
    const { rows: after } = await database.db.pool.query<{ xmin: string }>('SELECT xmin FROM api_keys WHERE id = $1', [
      key.keyId,
    ]);
    expect(after[0]?.xmin).toBe(before[0]?.xmin);
    expect(await lastUsedAt(key.keyId)).toEqual(first);
  });

  it('when the last recorded use is over a minute old, then it moves to now', async () => {
    const key = await issueApiKey(database.db, { accountName: 'later-use', permission: 'full_access', name: 'k' });
    await database.db.pool.query("UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1", [
      key.keyId,
    ]);
    const stale = await lastUsedAt(key.keyId);
    await touchApiKey(database.db, key.keyId);
    const fresh = await lastUsedAt(key.keyId);
    expect(fresh!.getTime() - stale!.getTime()).toBeGreaterThanOrEqual(110_000);
  });
});
