import { addAllowlistRule } from '../../src/allowlist/allowlist-repository.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import type { Database } from '../../src/db/database.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { newId } from '../../src/domain/ids.js';
import { ERROR_CODES, exampleMessage, type ErrorCode } from '../../src/error-codes.js';
import { createFeed } from '../../src/feeds/feed-repository.js';
import { feedPath, newFeedId, type Feed } from '../../src/feeds/feed.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newAccount } from '../support/accounts.js';
import { apiClient, type ApiResponse } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { consoleRequest, signIn } from '../support/console-client.js';
import { errorTableIn, renderErrorTable } from '../support/error-table.js';
import { sendGridSigner } from '../support/feed-signers.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { unreachableDatabase } from '../support/unreachable.js';

const METRICS_TOKEN = `metrics-${randomBytes(8).toString('hex')}`;

const app = useTestApp({ redis: 'live', metricsToken: METRICS_TOKEN });
/** The same app, allowed one request per second per account. */
let slow: RunningServer;
/** The app on a database that does not answer. */
let unreachable: Database;
let down: RunningServer;
/** The app on a database whose every query fails unexpectedly. */
let broken: RunningServer;
let document: any;

beforeAll(async () => {
  slow = await app.startApp({ redis: 'live', rateLimitPerSecond: 1 });
  unreachable = await unreachableDatabase({ connectTimeoutMs: 500 });
  down = await app.startApp({ db: unreachable });
  broken = await app.startApp({
    db: { ...app.database.db, query: () => Promise.reject(new Error('an unexpected failure')) },
  });
  document = await (await fetch(`${app.server.url}/openapi.json`)).json();
});

afterAll(async () => {
  await unreachable?.close();
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

/** A feed of a new account, to send provider requests to. */
async function newFeed(provider: 'ses' | 'sendgrid', verification: Feed['verification']): Promise<string> {
  const { accountId } = await newAccount(app.database.db);
  const feed = await createFeed(app.database.db, { id: newFeedId(), accountId, provider, verification });
  return feedPath(feed.id);
}

/**
 * For each code, a request to the running service that provokes it. A `Record` of every code: a
 * code added to the table without a way to provoke it here does not compile.
 */
const PROVOKE: Record<ErrorCode, () => Promise<ApiResponse>> = {
  invalid_idempotency_key: async () =>
    (await newApiAccount(app)).api.post(
      '/suppressions',
      { email: uniqueEmail() },
      { headers: { 'idempotency-key': 'k'.repeat(257) } },
    ),
  invalid_payload: async () => {
    const path = await newFeed('ses', { topic_arns: ['arn:aws:sns:us-east-1:123456789012:bounces'] });
    const envelope = {
      Type: 'Notification',
      MessageId: randomUUID(),
      Message: '{}',
      Timestamp: '2026-11-22T00:00:00Z',
    };
    return apiClient(app.server.url, null).post(path, envelope);
  },
  missing_api_key: () => apiClient(app.server.url, null).get('/suppressions'),
  restricted_api_key: async () =>
    apiClient(app.server.url, (await newAccount(app.database.db, 'sending_access')).token).get('/suppressions'),
  unauthorized: () => apiClient(app.server.url, null).get('/metrics'),
  invalid_signature: async () => {
    const path = await newFeed('sendgrid', { public_key: sendGridSigner().publicKey });
    const body = JSON.stringify([]);
    return apiClient(app.server.url, null).request('POST', path, {
      rawBody: body,
      headers: sendGridSigner().headers(body),
    });
  },
  invalid_session: () => consoleRequest(app.server.url, null, 'GET', '/console/session'),
  invalid_api_key: () => apiClient(app.server.url, generateToken()).get('/suppressions'),
  invalid_csrf_token: async () => {
    const { cookie } = await signIn(app.server.url, (await newAccount(app.database.db)).token);
    return consoleRequest(app.server.url, cookie, 'POST', '/console/api/suppressions', {
      body: { email: uniqueEmail() },
    });
  },
  not_found: async () => (await newApiAccount(app)).api.get(`/suppressions/${newId()}`),
  method_not_allowed: async () => (await newApiAccount(app)).api.request('PUT', '/suppressions'),
  invalid_idempotent_request: async () => {
    const { api } = await newApiAccount(app);
    const headers = { 'idempotency-key': randomUUID() };
    await api.post('/suppressions', { email: uniqueEmail() }, { headers });
    return api.post('/suppressions', { email: uniqueEmail() }, { headers });
  },
  allowlisted: async () => {
    // The documented example's rule and address, in an account of its own.
    const { email, rule } = ERROR_CODES.allowlisted.example;
    const { api, accountId } = await newApiAccount(app);
    await addAllowlistRule(app.database.db, { id: rule.id, accountId, value: rule.value, note: null });
    return api.post('/suppressions', { email });
  },
  complaint_protected: async () => {
    // The documented example's entry, in an account of its own.
    const [entry] = ERROR_CODES.complaint_protected.example.entries;
    const { api, accountId } = await newApiAccount(app);
    await addSuppressions(app.database.db, accountId, [{ ...entry, origin: 'complaint', sourceId: null }]);
    return api.delete(`/suppressions/${encodeURIComponent(entry.email)}`);
  },
  concurrent_idempotent_requests: async () => {
    const { api, accountId } = await newApiAccount(app);
    const idempotencyKey = randomUUID();
    const body = { email: uniqueEmail() };
    await api.post('/suppressions', body, { headers: { 'idempotency-key': idempotencyKey } });
    // Back to the state the record has while its first request runs.
    const redisKey = `${app.redisKeyPrefix}idempotency:${accountId}:${idempotencyKey}`;
    const stored = JSON.parse((await app.redis.get(redisKey))!);
    await app.redis.set(redisKey, JSON.stringify({ state: 'running', fingerprint: stored.fingerprint }), 'EX', 60);
    return api.post('/suppressions', body, { headers: { 'idempotency-key': idempotencyKey } });
  },
  // The file's app has no BOUNCE_DOMAINS.
  return_paths_not_configured: async () =>
    (await newApiAccount(app)).api.post('/return-paths', { recipients: ['reader@example.com'] }),
  payload_too_large: async () =>
    (await newApiAccount(app)).api.post('/suppressions/batch/add', {
      emails: ['a@example.com'],
      padding: 'x'.repeat(1024 * 1024),
    }),
  validation_error: async () =>
    (await newApiAccount(app)).api.post('/suppressions/batch/add', {
      emails: ['a@example.com', 'b@example.com', 'nope'],
    }),
  rate_limit_exceeded: async () => {
    const { api } = await newApiAccount(app, slow);
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
