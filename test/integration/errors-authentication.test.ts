import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import { newId } from '../../src/domain/ids.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, expectError } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { useTestApp } from '../support/test-app.js';

const app = useTestApp();

describe('401 missing_api_key', () => {
  it('when no Authorization header is sent, then it answers 401 missing_api_key', async () => {
    const response = await apiClient(app.server.url, null).get('/suppressions');
    expectError(response, 401, 'missing_api_key');
  });

  it.each([
    { scheme: 'Basic xyz', header: 'Basic xyz' },
    { scheme: 'Bearer with no token', header: 'Bearer' },
    { scheme: 'Bearer with two words', header: 'Bearer sl_one sl_two' },
    { scheme: 'a bare token', header: 'sl_abcdefghijklmnopqrstuvwxyz0123456789' },
  ])('when the header is $scheme, then it answers 401 missing_api_key', async ({ header }) => {
    const response = await apiClient(app.server.url, null).get('/suppressions', { headers: { authorization: header } });
    expectError(response, 401, 'missing_api_key');
  });

  it('when a write comes without a key, then it answers 401 before the body is even looked at', async () => {
    const response = await apiClient(app.server.url, null).post('/suppressions/batch/add', {
      emails: ['not-an-address'],
    });
    expectError(response, 401, 'missing_api_key');
  });
});

describe('401 restricted_api_key', () => {
  it.each([
    { method: 'GET', path: '/suppressions' },
    { method: 'GET', path: '/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d' },
    { method: 'DELETE', path: '/suppressions/someone@example.com' },
    { method: 'POST', path: '/suppressions/batch/remove' },
  ])(
    'when a sending_access key calls $method $path, then it answers 401 restricted_api_key',
    async ({ method, path }) => {
      const key = await newAccount(app.database.db, 'sending_access');
      const response = await apiClient(app.server.url, key.token).request(
        method,
        path,
        method === 'POST' ? { body: { ids: [newId()] } } : {},
      );
      expectError(response, 401, 'restricted_api_key');
    },
  );

  it('when a sending_access key tries to add an address, then it answers 401 and nothing is written', async () => {
    const sending = await newAccount(app.database.db, 'sending_access');
    const full = await newKey(app.database.db, sending.account, 'full_access');
    expect(full.accountId).toBe(sending.accountId);
    const email = uniqueEmail();
    const response = await apiClient(app.server.url, sending.token).post('/suppressions', { email });
    expectError(response, 401, 'restricted_api_key');
    const list = await apiClient(app.server.url, full.token).get('/suppressions');
    expect(list.body.data).toEqual([]);
  });
});

describe('403 invalid_api_key', () => {
  it('when the token is unknown, then it answers 403 invalid_api_key', async () => {
    const response = await apiClient(app.server.url, `sl_${randomUUID().replace(/-/g, '')}`).get('/suppressions');
    expectError(response, 403, 'invalid_api_key');
  });

  it('when a key is revoked before it was ever used, then its first request answers 403', async () => {
    const key = await newAccount(app.database.db);
    expect(await revokeApiKey(app.database.db, key.keyId)).toBe(true);
    const response = await apiClient(app.server.url, key.token).get('/suppressions');
    expectError(response, 403, 'invalid_api_key');
  });

  it('when a key in use is half way to its cache expiry, then it is looked up again in the background', async () => {
    const ttlMs = 4000;
    const refreshing = await app.startApp({ authCacheTtlMs: ttlMs });
    const key = await newAccount(app.database.db);
    const api = apiClient(refreshing.url, key.token);
    const cachedAt = Date.now();
    expect((await api.get('/suppressions')).status).toBe(200);
    expect(await revokeApiKey(app.database.db, key.keyId)).toBe(true);
    await sleep(ttlMs / 2 + 100);
    // Still served from the cache, and this request starts the lookup that sees the revocation.
    expect((await api.get('/suppressions')).status).toBe(200);
    let response = await api.get('/suppressions');
    while (response.status === 200 && Date.now() - cachedAt < ttlMs - 500) {
      await sleep(25);
      response = await api.get('/suppressions');
    }
    expectError(response, 403, 'invalid_api_key');
    expect(Date.now() - cachedAt).toBeLessThan(ttlMs);
  });

  it('when a key in use is revoked, then it answers 403 once the key cache entry expires', async () => {
    // With the default cache (5 s) the first request after revocation may still be served from the
    // cache; an app with a 100 ms cache shows the expiry itself without a long wait.
    const shortCache = await app.startApp({ authCacheTtlMs: 100 });
    const key = await newAccount(app.database.db);
    const api = apiClient(shortCache.url, key.token);
    expect((await api.get('/suppressions')).status).toBe(200);
    expect(await revokeApiKey(app.database.db, key.keyId)).toBe(true);

    const deadline = Date.now() + 2000;
    let response = await api.get('/suppressions');
    while (response.status === 200 && Date.now() < deadline) {
      await sleep(25);
      response = await api.get('/suppressions');
    }
    expectError(response, 403, 'invalid_api_key');
    // And it stays refused.
    expectError(await api.get('/suppressions'), 403, 'invalid_api_key');
  });
});
