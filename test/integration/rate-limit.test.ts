import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, type ApiClient, type ApiResponse } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const LIMIT = 3;

let redisFailures = 0;
let rejections = 0;
const app = useTestApp({
  redis: 'live',
  rateLimitPerSecond: LIMIT,
  onRateLimitRejected: () => {
    rejections += 1;
  },
});
/** A second process sharing the same Redis. */
let twin: RunningServer;
/** The same app, with a Redis that never answers. */
let unreachable: RunningServer;

beforeAll(async () => {
  twin = await app.startApp({ redis: 'live', rateLimitPerSecond: LIMIT });
  unreachable = await app.startApp({
    redis: 'unreachable',
    rateLimitPerSecond: LIMIT,
    onRateLimitRedisFailure: () => {
      redisFailures += 1;
    },
  });
});

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
    const { api } = await newApiAccount(app);
    const responses = await sequentially(api, LIMIT);

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const headers = responses.map(expectRateLimitHeaders);
    expect(headers.map((h) => h.limit)).toEqual([LIMIT, LIMIT, LIMIT]);
    // The window is a fixed second: each request takes one point from what remained, unless a new
    // second began between two of them, which gives back the whole limit less that request's point.
    expect(headers[0]?.remaining).toBe(LIMIT - 1);
    for (let i = 1; i < headers.length; i += 1) {
      expect([headers[i - 1]!.remaining - 1, LIMIT - 1]).toContain(headers[i]!.remaining);
    }
    for (const { reset } of headers) {
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(1);
    }
  });

  it('when the answer is an error (404, 422, POST 201), then it still carries the headers', async () => {
    const { api } = await newApiAccount(app);
    const responses = [
      await api.get('/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d'),
      await api.get('/suppressions?limit=0'),
      await api.post('/suppressions', { email: uniqueEmail() }),
    ];

    expect(responses.map((r) => r.status)).toEqual([404, 422, 201]);
    for (const response of responses) expect(expectRateLimitHeaders(response).limit).toBe(LIMIT);
  });

  it('when the request is not authenticated, then it is answered 401 without counting against anyone', async () => {
    const response = await apiClient(app.server.url, null).get('/suppressions');

    expect(response.status).toBe(401);
  });
});

describe('429 rate_limit_exceeded', () => {
  it('when an account goes over the limit, then it answers 429 with retry-after of at least one second', async () => {
    const { api } = await newApiAccount(app);
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
    const { api } = await newApiAccount(app);
    const responses = await Promise.all(Array.from({ length: LIMIT + 2 }, () => api.get('/suppressions')));
    const statuses = responses.map((r) => r.status).sort();

    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('when the window has passed, then the account may send again', async () => {
    const { api } = await newApiAccount(app);
    const responses = await sequentially(api, LIMIT + 1);

    expect(responses.at(-1)!.status).toBe(429);
    const wait = integerHeader(responses.at(-1)!, 'retry-after');
    await sleep(wait * 1000 + 50);
    expect((await api.get('/suppressions')).status).toBe(200);
  });

  it('when one account is over the limit, then another account is unaffected', async () => {
    const { api: busy } = await newApiAccount(app);
    const { api: other } = await newApiAccount(app);
    const responses = await sequentially(busy, LIMIT + 1);

    expect(responses.at(-1)!.status).toBe(429);
    const response = await other.get('/suppressions');
    expect(response.status).toBe(200);
    expect(expectRateLimitHeaders(response).remaining).toBe(LIMIT - 1);
  });

  it('when two keys of one account share the limit, then the account is limited, not the key', async () => {
    const first = await newAccount(app.database.db);
    const second = await newKey(app.database.db, first.account);

    expect(second.accountId).toBe(first.accountId);
    const responses = [
      ...(await sequentially(apiClient(app.server.url, first.token), 2)),
      ...(await sequentially(apiClient(app.server.url, second.token), 2)),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
  });

  it('when two app instances share Redis, then they share the limit', async () => {
    const { token } = await newAccount(app.database.db);
    const responses = [
      ...(await sequentially(apiClient(app.server.url, token), 2)),
      ...(await sequentially(apiClient(twin.url, token), 2)),
    ];

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
  });
});

describe('Redis unreachable', () => {
  it('when Redis cannot be reached, then requests are served (fail open) and the failure is counted', async () => {
    const { api } = await newApiAccount(app, unreachable);
    const before = redisFailures;
    const responses = await sequentially(api, LIMIT + 2);

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const response of responses) expect(expectRateLimitHeaders(response).limit).toBe(LIMIT);
    // One more for the first request, which the key cache did not know: it also asked the client limit.
    expect(redisFailures).toBe(before + LIMIT + 2 + 1);
  });
});
