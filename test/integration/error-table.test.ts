import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { generateToken } from '../../src/domain/api-key-token.js';
import { newId } from '../../src/domain/ids.js';
import { ERROR_CODES, exampleMessage, type ErrorCode } from '../../src/error-codes.js';
import { createLogger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { errorTableIn, renderErrorTable } from '../support/error-table.js';
import { apiClient, createAccountKey, startTestApp, uniqueEmails, type ApiResponse } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const METRICS_TOKEN = `metrics-${randomBytes(8).toString('hex')}`;
const keyPrefix = `errors-${randomBytes(5).toString('hex')}:`;

let database: TestDatabase;
let redis: Redis;
let server: RunningServer;
/** The same app, allowed one request per second per account. */
let slow: RunningServer;
/** The app on a database that does not answer. */
let unreachable: Database;
let down: RunningServer;
/** The app on a database whose every query fails unexpectedly. */
let broken: RunningServer;
let document: any;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createRedis(inject('redisUrl'), 'request');
  server = await startTestApp(database.db, { redis, redisKeyPrefix: keyPrefix, metricsToken: METRICS_TOKEN });
  slow = await startTestApp(database.db, { redis, redisKeyPrefix: `${keyPrefix}slow:`, rateLimitPerSecond: 1 });
  unreachable = createDatabase({
    url: 'postgres://postgres@127.0.0.1:1/nothing',
    logger: createLogger('silent'),
    connectTimeoutMs: 500,
  });
  down = await startTestApp(unreachable);
  broken = await startTestApp({
    ...database.db,
    query: () => Promise.reject(new Error('an unexpected failure')),
  } as Database);
  document = await (await fetch(`${server.url}/openapi.json`)).json();
});

afterAll(async () => {
  await Promise.all([server, slow, down, broken].map((app) => app?.close()));
  await unreachable?.close();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis?.quit();
  await database?.drop();
});

/** Every error example of the OpenAPI document, with the route and status it is shown under. */
function documentedErrors(): Array<{ where: string; status: number; value: any }> {
  const found: Array<{ where: string; status: number; value: any }> = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
        if (Number(status) < 400) continue;
        const content = response.content?.['application/json'];
        const values = [content?.example, ...Object.values<any>(content?.examples ?? {}).map((e) => e.value)];
        for (const value of values.filter((v) => v?.name !== undefined)) {
          found.push({ where: `${method.toUpperCase()} ${path} ${status}`, status: Number(status), value });
        }
      }
    }
  }
  return found;
}

async function newApi() {
  const key = await createAccountKey(database.db);
  return { key, api: apiClient(server.url, key.token) };
}

/**
 * For each code, a request to the running service that provokes it. A `Record` of every code: a
 * code added to the table without a way to provoke it here does not compile.
 */
const PROVOKE: Record<ErrorCode, () => Promise<ApiResponse>> = {
  invalid_idempotency_key: async () =>
    (await newApi()).api.post(
      '/suppressions',
      { email: uniqueEmails(1)[0] },
      { headers: { 'idempotency-key': 'k'.repeat(257) } },
    ),
  missing_api_key: () => apiClient(server.url, null).get('/suppressions'),
  restricted_api_key: async () =>
    apiClient(server.url, (await createAccountKey(database.db, 'sending_access')).token).get('/suppressions'),
  unauthorized: () => apiClient(server.url, null).get('/metrics'),
  invalid_api_key: () => apiClient(server.url, generateToken()).get('/suppressions'),
  not_found: async () => (await newApi()).api.get(`/suppressions/${newId()}`),
  method_not_allowed: async () => (await newApi()).api.request('PUT', '/suppressions'),
  invalid_idempotent_request: async () => {
    const { api } = await newApi();
    const headers = { 'idempotency-key': randomUUID() };
    await api.post('/suppressions', { email: uniqueEmails(1)[0] }, { headers });
    return api.post('/suppressions', { email: uniqueEmails(1)[0] }, { headers });
  },
  concurrent_idempotent_requests: async () => {
    const { api, key } = await newApi();
    const idempotencyKey = randomUUID();
    const body = { email: uniqueEmails(1)[0] };
    await api.post('/suppressions', body, { headers: { 'idempotency-key': idempotencyKey } });
    // Back to the state the record has while its first request runs.
    const redisKey = `${keyPrefix}idempotency:${key.accountId}:${idempotencyKey}`;
    const stored = JSON.parse((await redis.get(redisKey))!);
    await redis.set(redisKey, JSON.stringify({ state: 'running', fingerprint: stored.fingerprint }), 'EX', 60);
    return api.post('/suppressions', body, { headers: { 'idempotency-key': idempotencyKey } });
  },
  payload_too_large: async () =>
    (await newApi()).api.post('/suppressions/batch/add', {
      emails: ['a@example.com'],
      padding: 'x'.repeat(1024 * 1024),
    }),
  validation_error: async () =>
    (await newApi()).api.post('/suppressions/batch/add', { emails: ['a@example.com', 'b@example.com', 'nope'] }),
  rate_limit_exceeded: async () => {
    const api = apiClient(slow.url, (await createAccountKey(database.db)).token);
    let response = await api.get('/suppressions');
    while (response.status === 200) response = await api.get('/suppressions');
    return response;
  },
  internal_server_error: () => apiClient(broken.url, generateToken()).get('/suppressions'),
  service_unavailable: () => apiClient(down.url, generateToken()).get('/suppressions'),
};

describe('the table of error codes', () => {
  it('when docs/api.md is read, then its table of errors is the one written from the table of codes', () => {
    const markdown = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(errorTableIn(markdown), 'run `npm run docs:errors`').toBe(renderErrorTable());
  });

  it('when the OpenAPI document is read, then every code of the table is documented, and only codes of the table', () => {
    const errors = documentedErrors();
    expect(new Set(errors.map(({ value }) => value.name))).toEqual(new Set(Object.keys(ERROR_CODES)));
  });

  it('when the OpenAPI document shows an error, then its status and message are those of the table', () => {
    for (const { where, status, value } of documentedErrors()) {
      const code = value.name as ErrorCode;
      expect({ where, status, statusCode: value.statusCode }).toEqual({
        where,
        status: ERROR_CODES[code].status,
        statusCode: ERROR_CODES[code].status,
      });
      expect(value.message, where).toBe(exampleMessage(code));
    }
  });

  it.each(Object.keys(ERROR_CODES) as ErrorCode[])(
    'when %s is provoked on the running service, then it answers exactly what the OpenAPI document shows',
    async (code) => {
      const shown = documentedErrors().find(({ value }) => value.name === code);
      const response = await PROVOKE[code]();
      expect({ status: response.status, body: response.body }).toEqual({ status: shown?.status, body: shown?.value });
    },
  );
});
