import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { createRedis } from '../../src/redis.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import {
  apiClient,
  createAccountKey,
  startTestApp,
  uniqueEmails,
  type ApiClient,
  type ApiResponse,
} from '../support/test-app.js';

const LIMIT = 3;
const keyPrefix = `test-${randomBytes(5).toString('hex')}:`;

let database: TestDatabase;
let redis: Redis;
let twinRedis: Redis;
let deadRedis: Redis;
let server: RunningServer;
let twin: RunningServer;
let unreachable: RunningServer;
let redisFailures = 0;
let rejections = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createRedis(inject('redisUrl'), 'request');
  // Nothing listens on port 1: every command fails at once (no offline queue).
  deadRedis = createRedis('redis://127.0.0.1:1', 'request');
  deadRedis.on('error', () => {});
  server = await startTestApp(database.db, {
    redis,
    rateLimitPerSecond: LIMIT,
    redisKeyPrefix: keyPrefix,
    onRateLimitRejected: () => {
      rejections += 1;
    },
  });
  // A second process sharing the same Redis.
  twinRedis = createRedis(inject('redisUrl'), 'request');
  twin = await startTestApp(database.db, { redis: twinRedis, rateLimitPerSecond: LIMIT, redisKeyPrefix: keyPrefix });
  unreachable = await startTestApp(database.db, {
    redis: deadRedis,
    rateLimitPerSecond: LIMIT,
    redisKeyPrefix: keyPrefix,
    onRateLimitRedisFailure: () => {
      redisFailures += 1;
    },
  });
});

afterAll(async () => {
  await Promise.all([server?.close(), twin?.close(), unreachable?.close()]);
  redis?.disconnect();
  twinRedis?.disconnect();
  deadRedis?.disconnect();
  await database?.drop();
});

async function newToken(): Promise<string> {
  return (await createAccountKey(database.db)).token;
}

function integerHeader(response: ApiResponse, name: string): number {
  const value = response.headers.get(name);
  expect(value, name).toMatch(/^\d+$/);
  return Number(value);
}

function expectRateLimitHeaders(response: ApiResponse): { limit: number; remaining: number; reset: number } {
  return {
    limit: integerHeader(response, 'ratelimit-limit'),
    remaining: integerHeader(response, 'ratelimit-remaining'),
    reset: integerHeader(response, 'ratelimit-reset'),
  };
}

function sequentially(api: ApiClient, count: number): Promise<ApiResponse[]> {
  return Array.from({ length: count }).reduce<Promise<ApiResponse[]>>(
    async (previous) => [...(await previous), await api.get('/suppressions')],
    Promise.resolve([]),
  );
}

describe('rate limit headers', () => {
  it('when requests are within the limit, then each carries the limit, what remains and the reset as integers', async () => {
    const api = apiClient(server.url, await newToken());
    const responses = await sequentially(api, LIMIT);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const headers = responses.map(expectRateLimitHeaders);
    expect(headers.map((h) => h.limit)).toEqual([LIMIT, LIMIT, LIMIT]);
    expect(headers.map((h) => h.remaining)).toEqual([2, 1, 0]);
    for (const { reset } of headers) {
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(1);
    }
  });

  it('when the answer is an error (404, 422, POST 201), then it still carries the headers', async () => {
    const api = apiClient(server.url, await newToken());
    const responses = [
      await api.get('/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d'),
      await api.get('/suppressions?limit=0'),
      await api.post('/suppressions', { email: uniqueEmails(1)[0] }),
    ];
    expect(responses.map((r) => r.status)).toEqual([404, 422, 201]);
    for (const response of responses) expect(expectRateLimitHeaders(response).limit).toBe(LIMIT);
  });

  it('when the request is not authenticated, then it is answered 401 without counting against anyone', async () => {
    const response = await apiClient(server.url, null).get('/suppressions');
    expect(response.status).toBe(401);
  });
});

describe('429 rate_limit_exceeded', () => {
  it('when an account goes over the limit, then it answers 429 with retry-after of at least one second', async () => {
    const api = apiClient(server.url, await newToken());
    const before = rejections;
    const responses = await sequentially(api, LIMIT + 1);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const refused = responses[LIMIT]!;
    expect(refused.body).toStrictEqual({ statusCode: 429, name: 'rate_limit_exceeded', message: expect.any(String) });
    expect(integerHeader(refused, 'retry-after')).toBeGreaterThanOrEqual(1);
    expect(expectRateLimitHeaders(refused)).toMatchObject({ limit: LIMIT, remaining: 0 });
    expect(expectRateLimitHeaders(refused).reset).toBeGreaterThanOrEqual(1);
    expect(rejections).toBe(before + 1);
  });

  it('when concurrent requests exceed the limit, then exactly the surplus is refused', async () => {
    const api = apiClient(server.url, await newToken());
    const responses = await Promise.all(Array.from({ length: LIMIT + 2 }, () => api.get('/suppressions')));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('when the window has passed, then the account may send again', async () => {
    const api = apiClient(server.url, await newToken());
    const responses = await sequentially(api, LIMIT + 1);
    expect(responses.at(-1)!.status).toBe(429);
    const wait = integerHeader(responses.at(-1)!, 'retry-after');
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
    expect((await api.get('/suppressions')).status).toBe(200);
  });

  it('when one account is over the limit, then another account is unaffected', async () => {
    const busy = apiClient(server.url, await newToken());
    const other = apiClient(server.url, await newToken());
    const responses = await sequentially(busy, LIMIT + 1);
    expect(responses.at(-1)!.status).toBe(429);
    const response = await other.get('/suppressions');
    expect(response.status).toBe(200);
    expect(expectRateLimitHeaders(response).remaining).toBe(LIMIT - 1);
  });

  it('when two keys of one account share the limit, then the account is limited, not the key', async () => {
    const first = await createAccountKey(database.db);
    const { issueApiKey } = await import('../../src/db/api-key-repository.js');
    const { rows } = await database.db.pool.query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [
      first.accountId,
    ]);
    const second = await issueApiKey(database.db, {
      accountName: rows[0]!.name,
      permission: 'full_access',
      name: 'second',
    });
    expect(second.accountId).toBe(first.accountId);
    const responses = [
      ...(await sequentially(apiClient(server.url, first.token), 2)),
      ...(await sequentially(apiClient(server.url, second.token), 2)),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
  });

  it('when two app instances share Redis, then they share the limit', async () => {
    const token = await newToken();
    const responses = [
      ...(await sequentially(apiClient(server.url, token), 2)),
      ...(await sequentially(apiClient(twin.url, token), 2)),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
  });
});

describe('Redis unreachable', () => {
  it('when Redis cannot be reached, then requests are served (fail open) and the failure is counted', async () => {
    const api = apiClient(unreachable.url, await newToken());
    const before = redisFailures;
    const responses = await sequentially(api, LIMIT + 2);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const response of responses) expect(expectRateLimitHeaders(response).limit).toBe(LIMIT);
    // One more for the first request, which the key cache did not know: it also asked the client limit.
    expect(redisFailures).toBe(before + LIMIT + 2 + 1);
  });
});
