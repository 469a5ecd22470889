import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { ERROR_CODES } from '../../src/error-codes.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient, type ApiResponse } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { unreachableDatabase } from '../support/unreachable.js';

const app = useTestApp();

function allowedMethods(response: ApiResponse): string[] {
  return (response.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean).sort();
}

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

describe('422 validation_error on the list query', () => {
  it.each([
    { what: 'limit is 0', query: 'limit=0', field: '`limit`' },
    { what: 'limit is 101', query: 'limit=101', field: '`limit`' },
    { what: 'limit is -1', query: 'limit=-1', field: '`limit`' },
    { what: 'limit is 1.5', query: 'limit=1.5', field: '`limit`' },
    { what: 'limit is abc', query: 'limit=abc', field: '`limit`' },
    { what: 'limit is empty', query: 'limit=', field: '`limit`' },
    { what: 'limit is repeated', query: 'limit=1&limit=2', field: '`limit`' },
    {
      what: 'after and before are both given',
      query: `after=${newId()}&before=${newId()}`,
      field: '`after` and `before`',
    },
    { what: 'after is not a UUID', query: 'after=not-a-uuid', field: '`after`' },
    { what: 'after is empty', query: 'after=', field: '`after`' },
    { what: 'before is not a UUID', query: 'before=12345', field: '`before`' },
    { what: 'origin is unknown', query: 'origin=spam', field: '`origin`' },
    { what: 'origin is in capitals', query: 'origin=BOUNCE', field: '`origin`' },
  ])('when $what, then it answers 422 and the message names the field', async ({ query, field }) => {
    const { api } = await newApiAccount(app);
    const response = await api.get(`/suppressions?${query}`);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain(field);
  });
});

describe('422 validation_error on batch bodies', () => {
  const many = uniqueEmails(101);

  it.each([
    { what: 'batch add has an empty array', path: '/suppressions/batch/add', body: { emails: [] }, field: '`emails`' },
    { what: 'batch add has 101 items', path: '/suppressions/batch/add', body: { emails: many }, field: '`emails`' },
    {
      what: 'batch add emails is not an array',
      path: '/suppressions/batch/add',
      body: { emails: 'a@example.com' },
      field: '`emails`',
    },
    { what: 'batch add has no emails', path: '/suppressions/batch/add', body: {}, field: '`emails`' },
    {
      what: 'batch add has a non-string item',
      path: '/suppressions/batch/add',
      body: { emails: ['a@example.com', 42] },
      field: '`emails[1]`',
    },
    {
      what: 'batch remove has both emails and ids',
      path: '/suppressions/batch/remove',
      body: { emails: ['a@example.com'], ids: [newId()] },
      field: '`ids`',
    },
    {
      what: 'batch remove has neither emails nor ids',
      path: '/suppressions/batch/remove',
      body: {},
      field: '`emails` or `ids`',
    },
    {
      what: 'batch remove has an empty emails array',
      path: '/suppressions/batch/remove',
      body: { emails: [] },
      field: '`emails`',
    },
    {
      what: 'batch remove has an empty ids array',
      path: '/suppressions/batch/remove',
      body: { ids: [] },
      field: '`ids`',
    },
    {
      what: 'batch remove has 101 emails',
      path: '/suppressions/batch/remove',
      body: { emails: many },
      field: '`emails`',
    },
    {
      what: 'batch remove has 101 ids',
      path: '/suppressions/batch/remove',
      body: { ids: Array.from({ length: 101 }, () => newId()) },
      field: '`ids`',
    },
    {
      what: 'batch remove emails is not an array',
      path: '/suppressions/batch/remove',
      body: { emails: 'a@example.com' },
      field: '`emails`',
    },
    {
      what: 'batch remove has a non-string email',
      path: '/suppressions/batch/remove',
      body: { emails: [null] },
      field: '`emails[0]`',
    },
    {
      what: 'batch remove has a non-UUID id',
      path: '/suppressions/batch/remove',
      body: { ids: [newId(), 'not-a-uuid'] },
      field: '`ids[1]`',
    },
  ])('when $what, then it answers 422 and the message names the field', async ({ path, body, field }) => {
    const { api } = await newApiAccount(app);
    const response = await api.post(path, body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain(field);
  });

  it('when a batch add has a bad address at index 1, then it answers 422 naming emails[1] and writes nothing', async () => {
    const { api } = await newApiAccount(app);
    const [good, other] = uniqueEmails(2);
    const response = await api.post('/suppressions/batch/add', { emails: [good, 'not-an-address', other] });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`emails[1]`');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when a batch remove has a bad address at index 1, then it answers 422 naming emails[1] and removes nothing', async () => {
    const { api } = await newApiAccount(app);
    const good = uniqueEmail();
    const { body: added } = await api.post('/suppressions', { email: good });
    const response = await api.post('/suppressions/batch/remove', { emails: [good, 'not-an-address'] });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`emails[1]`');
    expect((await api.get(`/suppressions/${added.id}`)).status).toBe(200);
  });
});

describe('422 validation_error on POST /suppressions', () => {
  it.each([
    { what: 'the email is missing', body: {} },
    { what: 'the email is not a string', body: { email: 42 } },
    { what: 'the email is empty', body: { email: '' } },
    { what: 'the email is only spaces', body: { email: '   ' } },
    { what: 'the email is not an address', body: { email: 'not-an-address' } },
    { what: 'the email has no dot in its domain', body: { email: 'user@localhost' } },
  ])('when $what, then it answers 422 naming `email`', async ({ body }) => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/suppressions', body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`email`');
  });
});

describe('422 validation_error on unreadable bodies', () => {
  const endpoints = ['/suppressions', '/suppressions/batch/add', '/suppressions/batch/remove'];

  it.each(endpoints)('when the JSON sent to %s is malformed, then it answers 422', async (path) => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', path, { rawBody: '{"emails": ["a@example.com"' });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/JSON/);
  });

  it.each(
    endpoints.flatMap((path) => [
      { path, kind: 'an array', rawBody: '["a@example.com"]' },
      { path, kind: 'null', rawBody: 'null' },
      { path, kind: 'a string', rawBody: '"a@example.com"' },
      { path, kind: 'a number', rawBody: '42' },
    ]),
  )('when the JSON body sent to $path is $kind, then it answers 422', async ({ path, rawBody }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', path, { rawBody });
    expectError(response, 422, 'validation_error');
  });

  it('when a JSON content type comes with an empty body, then it answers 422', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody: '' });
    expectError(response, 422, 'validation_error');
  });

  it.each([
    { path: '/suppressions', body: (email: string) => ({ email }) },
    { path: '/suppressions/batch/add', body: (email: string) => ({ emails: [email] }) },
  ])('when a body is sent to $path as text/plain, then it answers 422 and writes nothing', async ({ path, body }) => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const response = await api.request('POST', path, {
      rawBody: JSON.stringify(body(email)),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(response, 422, 'validation_error');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });
});

describe('422 validation_error on the {suppression} path', () => {
  it.each([
    { method: 'GET', path: '/suppressions/not-an-address' },
    { method: 'DELETE', path: '/suppressions/not-an-address' },
    { method: 'GET', path: '/suppressions/1234' },
    { method: 'GET', path: '/suppressions/user%40' },
  ])('when $method $path is neither an id nor an address, then it answers 422', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`suppression`');
  });

  it.each([
    { method: 'GET', path: '/suppressions/%E0%A4%A' },
    { method: 'GET', path: '/suppressions/abc%' },
    { method: 'DELETE', path: '/suppressions/%zz@example.com' },
  ])('when $method $path is malformed percent-encoding, then it answers 422', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/percent-encoded/);
  });
});

describe('404 not_found', () => {
  it('when the id is unknown, then GET answers 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.get(`/suppressions/${newId()}`), 404, 'not_found');
  });

  it('when the address is unknown, then GET answers 404', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    expectError(await api.get(`/suppressions/${encodeURIComponent(email)}`), 404, 'not_found');
  });

  it('when the id is unknown, then DELETE answers 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.delete(`/suppressions/${newId()}`), 404, 'not_found');
  });

  it('when the address is unknown, then DELETE answers 404', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    expectError(await api.delete(`/suppressions/${email}`), 404, 'not_found');
  });

  it('when an entry was already deleted, then deleting it again answers 404', async () => {
    const { api } = await newApiAccount(app);
    const { body: added } = await api.post('/suppressions', { email: uniqueEmail() });
    expect((await api.delete(`/suppressions/${added.id}`)).status).toBe(200);
    expectError(await api.delete(`/suppressions/${added.id}`), 404, 'not_found');
  });

  it.each([
    { method: 'GET', path: '/nope' },
    { method: 'POST', path: '/nope' },
    { method: 'GET', path: '/suppressions/a/b/c' },
    { method: 'DELETE', path: '/suppressions/batch/add/extra' },
  ])('when the route $method $path does not exist, then it answers 404', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    expectError(await api.request(method, path), 404, 'not_found');
  });
});

describe('405 method_not_allowed', () => {
  it.each([
    { method: 'PUT', path: '/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', allow: ['DELETE', 'GET'] },
    { method: 'PATCH', path: '/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', allow: ['DELETE', 'GET'] },
    { method: 'PUT', path: '/suppressions/someone@example.com', allow: ['DELETE', 'GET'] },
    { method: 'GET', path: '/suppressions/batch/add', allow: ['POST'] },
    { method: 'DELETE', path: '/suppressions/batch/remove', allow: ['POST'] },
    { method: 'DELETE', path: '/suppressions', allow: ['GET', 'POST'] },
    { method: 'POST', path: '/health', allow: ['GET'] },
  ])('when $method is used on $path, then it answers 405 with an Allow header', async ({ method, path, allow }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 405, 'method_not_allowed');
    expect(allowedMethods(response)).toEqual(allow);
  });
});

describe('413 payload_too_large', () => {
  it('when a batch add body is over 1 MB, then it answers 413 and writes nothing', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const rawBody = JSON.stringify({ emails: [email], padding: 'x'.repeat(1024 * 1024) });
    expect(Buffer.byteLength(rawBody)).toBeGreaterThan(1024 * 1024);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody });
    expectError(response, 413, 'payload_too_large');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when a body is just under 1 MB, then it is read (and judged on its content)', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const rawBody = JSON.stringify({ emails: [email], padding: 'x'.repeat(1000 * 1000) });
    expect(Buffer.byteLength(rawBody)).toBeLessThan(1024 * 1024);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody });
    expect(response.status).toBe(201);
  });
});

describe('503 service_unavailable when the database is unreachable', () => {
  let unreachable: Database;
  let down: RunningServer;

  beforeAll(async () => {
    unreachable = await unreachableDatabase({ connectTimeoutMs: 500 });
    down = await app.startApp({ db: unreachable });
  });

  afterAll(async () => {
    await unreachable?.close();
  });

  it.each([
    { route: 'GET /suppressions', method: 'GET', path: '/suppressions', body: undefined },
    { route: 'GET /suppressions/{id}', method: 'GET', path: `/suppressions/${newId()}`, body: undefined },
    {
      route: 'POST /suppressions/batch/add',
      method: 'POST',
      path: '/suppressions/batch/add',
      body: { emails: ['a@example.com'] },
    },
  ])('when $route is called, then it answers 503 quickly instead of hanging', async ({ method, path, body }) => {
    // Any well-formed token will do: looking the key up already needs the database.
    const api = apiClient(down.url, generateToken());
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = performance.now();
      const response = await api.request(method, path, body === undefined ? {} : { body });
      const elapsed = performance.now() - started;
      expectError(response, 503, 'service_unavailable');
      // A hang guard, well under the test timeout; not a speed benchmark.
      expect(elapsed).toBeLessThan(5000);
    }
  });

  it('when a token cannot be one this service issued, then it answers 403 without asking the database', async () => {
    for (const token of [`sl_${randomUUID()}`, 'x'.repeat(8192), `${generateToken()}x`]) {
      expectError(await apiClient(down.url, token).get('/suppressions'), 403, 'invalid_api_key');
    }
  });

  it('when the database is down, then the health route still answers without it', async () => {
    const response = await apiClient(down.url, null).get('/health');
    expect(response.status).toBe(200);
  });
});

describe('500 internal_server_error', () => {
  let broken: TestDatabase;
  let brokenServer: RunningServer;
  let api: ApiClient;

  beforeAll(async () => {
    broken = await createTestDatabase();
    const key = await newAccount(broken.db);
    await broken.db.query({ text: 'DROP TABLE suppressions' });
    brokenServer = await app.startApp({ db: broken.db });
    api = apiClient(brokenServer.url, key.token);
  });

  afterAll(async () => {
    await broken?.drop();
  });

  it.each([
    { route: 'GET /suppressions', method: 'GET', path: '/suppressions', body: undefined },
    { route: 'GET /suppressions/{id}', method: 'GET', path: `/suppressions/${newId()}`, body: undefined },
    {
      route: 'POST /suppressions/batch/add',
      method: 'POST',
      path: '/suppressions/batch/add',
      body: { emails: ['a@example.com'] },
    },
  ])(
    'when SQL fails on $route, then it answers 500 with the generic message and no internals',
    async ({ method, path, body }) => {
      const response = await api.request(method, path, body === undefined ? {} : { body });
      expectError(response, 500, 'internal_server_error');
      expect(response.body.message).toBe(ERROR_CODES.internal_server_error.message);
      const text = JSON.stringify(response.body);
      for (const leak of [
        'suppressions',
        'relation',
        'SELECT',
        'INSERT',
        'does not exist',
        '42P01',
        'at ',
        '.ts',
        'Error:',
      ]) {
        expect(text).not.toContain(leak);
      }
    },
  );
});
