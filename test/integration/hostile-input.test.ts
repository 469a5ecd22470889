import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { generateToken } from '../../src/domain/api-key-token.js';
import { createRedis } from '../../src/redis.js';
import { apiClient, createAccountKey, startTestApp, uniqueEmails, type ApiResponse } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const CLIENT_LIMIT = 5;
const keyPrefix = `hostile-${randomBytes(5).toString('hex')}:`;

let database: TestDatabase;
let redis: Redis;
let server: RunningServer;
/** The same app with a client limit low enough to reach. */
let limited: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createRedis(inject('redisUrl'), 'request');
  server = await startTestApp(database.db, {
    redis,
    redisKeyPrefix: keyPrefix,
    rateLimitPerSecond: 1000,
    clientRateLimitPerSecond: 1000,
  });
  limited = await startTestApp(database.db, {
    redis,
    redisKeyPrefix: `${keyPrefix}limited:`,
    rateLimitPerSecond: 1000,
    clientRateLimitPerSecond: CLIENT_LIMIT,
  });
});

afterAll(async () => {
  await server?.close();
  await limited?.close();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis?.quit();
  await database?.drop();
});

/** Waits for the start of a fresh one-second window, so that a burst falls in one window. */
async function startOfSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

describe('bodies whose Content-Encoding does not decode', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'when a body sent as %s does not decode, then it answers 422 validation_error saying so, and writes nothing',
    async (encoding) => {
      const key = await createAccountKey(database.db);
      const [email] = uniqueEmails(1);
      const response = await fetch(`${server.url}/suppressions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.token}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: JSON.stringify({ email }),
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        statusCode: 422,
        name: 'validation_error',
        message: 'The request body does not decode as its `Content-Encoding` says.',
      });
      const list = await apiClient(server.url, key.token).get('/suppressions');
      expect(list.body.data).toEqual([]);
    },
  );

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const)('when a %s body decodes, then it is read as JSON like any other', async (encoding, compress) => {
    const key = await createAccountKey(database.db);
    const [email] = uniqueEmails(1);
    const response = await fetch(`${server.url}/suppressions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.token}`,
        'content-type': 'application/json',
        'content-encoding': encoding,
      },
      body: compress(Buffer.from(JSON.stringify({ email }))),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ object: 'suppression' });
    const stored = await apiClient(server.url, key.token).get(`/suppressions/${encodeURIComponent(email!)}`);
    expect(stored.body).toMatchObject({ object: 'suppression', email });
  });
});

describe('bodies nested far deeper than any valid one', () => {
  it('when a body 4,000 levels deep comes with an Idempotency-Key, then it answers 422 like the same body without one', async () => {
    const key = await createAccountKey(database.db);
    const api = apiClient(server.url, key.token);
    const rawBody = `{"email":${'['.repeat(4000)}${']'.repeat(4000)}}`;
    const withKey = await api.request('POST', '/suppressions', {
      rawBody,
      headers: { 'idempotency-key': `deep-${randomBytes(4).toString('hex')}` },
    });
    const withoutKey = await api.request('POST', '/suppressions', { rawBody });
    expect(withKey.status).toBe(422);
    expect(withKey.body).toEqual(withoutKey.body);
    expect(withKey.body.name).toBe('validation_error');
  });
});

describe('requests the key cache cannot admit', () => {
  it(`when one client sends more than ${CLIENT_LIMIT} made-up keys in a second, then the rest answer 429 with retry-after, and a key in use is still served`, async () => {
    const key = await createAccountKey(database.db);
    const known = apiClient(limited.url, key.token);
    expect((await known.get('/suppressions')).status).toBe(200);

    await startOfSecond();
    const statuses: number[] = [];
    let refused: ApiResponse | undefined;
    for (let attempt = 0; attempt < CLIENT_LIMIT + 3; attempt += 1) {
      const response = await apiClient(limited.url, generateToken()).get('/suppressions');
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses.filter((status) => status === 403).length).toBeLessThanOrEqual(CLIENT_LIMIT);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(3);
    expect(refused?.body.name).toBe('rate_limit_exceeded');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Admitted from the cache: the client's limit does not apply to it.
    expect((await known.get('/suppressions')).status).toBe(200);
  });

  it('when a request has no key at all, then it counts against its client address too', async () => {
    await startOfSecond();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < CLIENT_LIMIT + 2; attempt += 1) {
      statuses.push((await apiClient(limited.url, null).get('/suppressions')).status);
    }
    expect(statuses).toContain(401);
    expect(statuses).toContain(429);
  });
});

describe('addresses that lower-casing would turn into others', () => {
  it('when an address has a Kelvin sign, then it is refused with 422 and no ASCII address is suppressed in its place', async () => {
    const key = await createAccountKey(database.db);
    const api = apiClient(server.url, key.token);
    const response = await api.post('/suppressions', { email: '\u212Aate@example.com' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: '`email` is not a valid email address.',
    });
    expect((await api.get('/suppressions/kate@example.com')).status).toBe(404);
  });
});
