import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { ERROR_CODES } from '../../src/error-codes.js';
import { newAccount } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { useTestApp } from '../support/test-app.js';
import { unreachableDatabase } from '../support/unreachable.js';

const app = useTestApp();

/** A read, a lookup and a write: each must answer its error quickly and in JSON. */
const READ_AND_WRITE_ROUTES = [
  { route: 'GET /suppressions', method: 'GET', path: '/suppressions', body: undefined },
  { route: 'GET /suppressions/{id}', method: 'GET', path: `/suppressions/${newId()}`, body: undefined },
  {
    route: 'POST /suppressions/batch/add',
    method: 'POST',
    path: '/suppressions/batch/add',
    body: { emails: ['a@example.com'] },
  },
];

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

  it.each(READ_AND_WRITE_ROUTES)(
    'when $route is called, then it answers 503 quickly instead of hanging',
    async ({ method, path, body }) => {
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
    },
  );

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

  it.each(READ_AND_WRITE_ROUTES)(
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
