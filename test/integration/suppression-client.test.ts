import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import type { SuppressionResource } from '../../src/contract/suppression.js';
import {
  createSuppressionClient,
  SuppressionApiError,
  SuppressionCheckUnavailableError,
  type SuppressionClientOptions,
} from '../../src/index.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, type ApiClient } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { startTcpProxy, targetOf, urlThrough, type TcpProxy } from '../support/tcp-proxy.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { closedPort, unreachableDatabase } from '../support/unreachable.js';

const app = useTestApp();

/** The same app on the file's database, counting the checks it answers. */
let counted: { server: RunningServer; metrics: Metrics };
/** An app allowing one request per second and account, counting the checks it answers. */
let limited: { server: RunningServer; metrics: Metrics };
const databases: Database[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  const countedMetrics = createMetrics();
  counted = { server: await app.startApp({ metrics: countedMetrics }), metrics: countedMetrics };
  const limitedMetrics = createMetrics();
  limited = {
    server: await app.startApp({ redis: 'live', rateLimitPerSecond: 1, metrics: limitedMetrics }),
    metrics: limitedMetrics,
  };
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.close()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

/**
 * How many POST requests the app answered with `status`: only checks are posted to the apps counted.
 * Requests refused before routing (authentication, rate limit) are not named by route, so none is.
 */
async function answered(metrics: Metrics, status: number): Promise<number> {
  const { values } = await metrics.httpRequestDuration.get();
  return values
    .filter(
      ({ metricName, labels }) =>
        metricName === 'http_request_duration_seconds_count' &&
        labels.method === 'POST' &&
        labels.status === String(status),
    )
    .reduce((sum, { value }) => sum + value, 0);
}

function clientOf(server: RunningServer, apiKey: string, options: Partial<SuppressionClientOptions> = {}) {
  return createSuppressionClient({ baseUrl: server.url, apiKey, ...options });
}

/** Suppresses `emails` (100 at a time, as the batch endpoint takes them) and returns their entries, by address. */
async function suppress(api: ApiClient, emails: readonly string[]): Promise<Map<string, SuppressionResource>> {
  for (let start = 0; start < emails.length; start += 100) {
    const response = await api.post('/suppressions/batch/add', { emails: emails.slice(start, start + 100) });
    expect(response.status).toBe(201);
  }
  const entries = new Map<string, SuppressionResource>();
  for (const email of emails) {
    const response = await api.get(`/suppressions/${encodeURIComponent(email)}`);
    expect(response.status).toBe(200);
    entries.set(email, response.body);
  }
  return entries;
}

/** How long `work` took to settle, and how. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; outcome: PromiseSettledResult<T> }> {
  const startedAt = performance.now();
  const [outcome] = await Promise.allSettled([work()]);
  return { ms: performance.now() - startedAt, outcome: outcome as PromiseSettledResult<T> };
}

/**
 * How `work` settled with the client's clock stopped (its deadline, and the timer that keeps it, move
 * only when a test moves them): a call that settles so has not waited for its budget to pass.
 */
async function withClientClockStopped<T>(work: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    const [outcome] = await Promise.allSettled([work()]);
    return outcome;
  } finally {
    vi.useRealTimers();
  }
}

function rejection(outcome: PromiseSettledResult<unknown>): unknown {
  if (outcome.status === 'fulfilled') throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.reason;
}

describe('unsubscribe headers', () => {
  it('when a sending key asks for the headers of many addresses, then each distinct address gets its two headers, and bad items keep their positions', async () => {
    const owner = await newApiAccount(app);
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    const emails = uniqueEmails(1500);
    const input = [...emails, 'not-an-address', emails[0]!.toUpperCase()];

    const result = await clientOf(app.server, key.token).unsubscribeHeaders(input, 'newsletter');

    expect(result.links.map((link) => link.email)).toEqual(emails);
    expect(result.invalid).toEqual([{ index: 1500, email: 'not-an-address', reason: 'is not a valid email address' }]);
    const [first] = result.links;
    expect(first!.headers['List-Unsubscribe']).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[A-Za-z0-9_-]+>$/);
    expect(first!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('checking addresses', () => {
  it('when a send has a scope, then the entries of that scope stop it too, and a send of no scope only the whole account’s', async () => {
    const owner = await newApiAccount(app);
    const [reader, dead] = uniqueEmails(2);
    await owner.api.post('/suppressions', { email: reader, scope: 'newsletter' });
    await owner.api.post('/suppressions', { email: dead });
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    const client = clientOf(app.server, key.token);

    const newsletter = await client.filterSendable([reader!, dead!], { scope: 'newsletter' });
    const reset = await client.filterSendable([reader!, dead!]);

    expect(newsletter.sendable).toEqual([]);
    expect(reset.sendable).toEqual([reader]);
    await expect(client.check([reader!], { scope: 'Not A Scope' })).rejects.toMatchObject({
      statusCode: 422,
      code: 'validation_error',
    });
  });

  it.each(['full_access', 'sending_access'] as const)(
    'when a %s key checks suppressed, unsuppressed, repeated (in other case) and invalid addresses, then each suppressed one comes back once with its entry and each invalid one with its position',
    async (permission) => {
      const owner = await newApiAccount(app);
      const [bounced, complained, fresh, other] = uniqueEmails(4);
      const entries = await suppress(owner.api, [bounced!, complained!]);
      const key = await newKey(app.database.db, owner.account, permission);

      const result = await clientOf(app.server, key.token).check([
        bounced!.toUpperCase(),
        fresh!,
        'not-an-address',
        ` ${bounced!} `,
        complained!,
        '',
        other!,
        fresh!.replace('user', 'USER'),
      ]);

      expect(result).toEqual({
        object: 'suppression_check',
        checked: 4,
        suppressed: [entries.get(bounced!), entries.get(complained!)],
        invalid: [
          { index: 2, email: 'not-an-address', reason: 'is not a valid email address' },
          { index: 5, email: '', reason: 'is empty' },
        ],
      });
    },
  );

  it('when 2,500 addresses are checked, then three requests are answered and merged in input order, with invalid indexes in the whole input and repeats across requests counted once', async () => {
    const { api, token } = await newApiAccount(app);
    const emails = uniqueEmails(2500);
    const suppressedAt = [10, 999, 1000, 2499];
    const entries = await suppress(
      api,
      suppressedAt.map((index) => emails[index]!),
    );
    // Repeats in later requests of addresses from earlier ones (one of them in capitals), and one invalid address per request.
    emails[1200] = emails[999]!;
    emails[2100] = emails[10]!.toUpperCase();
    emails[2300] = emails[20]!;
    emails[5] = 'first@';
    emails[1500] = 'second@@example.com';
    emails[2400] = 'third';
    const before = await answered(counted.metrics, 200);

    const result = await clientOf(counted.server, token, { concurrency: 2 }).check(emails);

    expect(await answered(counted.metrics, 200)).toBe(before + 3);
    expect(result.checked).toBe(2500 - 3 - 3);
    expect(result.suppressed).toEqual(suppressedAt.map((index) => entries.get(emails[index]!)));
    expect(result.invalid).toEqual([
      { index: 5, email: 'first@', reason: 'is not a valid email address' },
      { index: 1500, email: 'second@@example.com', reason: 'is not a valid email address' },
      { index: 2400, email: 'third', reason: 'is not a valid email address' },
    ]);
  });

  it('when addresses are filtered, then the sendable ones are the valid, unsuppressed ones, normalised, each once, in input order', async () => {
    const owner = await newApiAccount(app);
    const [gone, first, second] = uniqueEmails(3);
    const entries = await suppress(owner.api, [gone!]);
    const sending = await newKey(app.database.db, owner.account, 'sending_access');
    const emails = [
      ` ${second!.toUpperCase()}`,
      gone!,
      'x@y',
      first!,
      second!,
      ...uniqueEmails(1200, 'example.org'),
      gone!.toUpperCase(),
      first!,
    ];

    const { sendable, suppressed, invalid } = await clientOf(app.server, sending.token).filterSendable(emails);

    expect(sendable).toEqual([second!, first!, ...emails.slice(5, 1205)]);
    expect(suppressed).toEqual([entries.get(gone!)]);
    expect(invalid).toEqual([{ index: 2, email: 'x@y', reason: 'is not a valid email address' }]);
  });

  it('when there are no addresses, then the answer is empty without any request (there is no server to ask)', async () => {
    const client = createSuppressionClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'unused' });

    expect(await client.check([])).toEqual({ object: 'suppression_check', checked: 0, suppressed: [], invalid: [] });
    expect(await client.filterSendable([])).toEqual({ sendable: [], suppressed: [], invalid: [] });
  });
});

describe('refusals', () => {
  it.each([
    ['revoked', true],
    ['unknown', false],
  ])(
    'when the key is %s, then SuppressionApiError (403 invalid_api_key) is thrown at once, after one request',
    async (_what, revoked) => {
      const { keyId, token } = await newAccount(app.database.db, 'sending_access');
      if (revoked) await revokeApiKey(app.database.db, keyId);
      const before = await answered(counted.metrics, 403);

      const outcome = await withClientClockStopped(() =>
        clientOf(counted.server, revoked ? token : generateToken()).filterSendable([uniqueEmail()]),
      );

      const error = rejection(outcome);
      expect(error).toBeInstanceOf(SuppressionApiError);
      expect(error).toMatchObject({ statusCode: 403, code: 'invalid_api_key', message: 'API key is invalid.' });
      expect(await answered(counted.metrics, 403)).toBe(before + 1);
    },
  );
});

describe('rate limiting', () => {
  it('when the account is over its rate, then the client waits the retry-after the 429 gives and then has its answer', async () => {
    const owner = await newApiAccount(app);
    const entries = await suppress(owner.api, [uniqueEmail()]);
    const [gone] = [...entries.keys()];
    const rejectedBefore = await answered(limited.metrics, 429);
    // The one request this second allows.
    const spent = await apiClient(limited.server.url, owner.token).post('/suppressions/check', { emails: [gone] });
    expect(spent.status).toBe(200);

    const { ms, outcome } = await timed(() =>
      clientOf(limited.server, owner.token).filterSendable([gone!, 'ok@example.com']),
    );

    expect(outcome).toEqual({
      status: 'fulfilled',
      value: { sendable: ['ok@example.com'], suppressed: [entries.get(gone!)], invalid: [] },
    });
    expect(await answered(limited.metrics, 429)).toBe(rejectedBefore + 1);
    // retry-after is a whole second.
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(2500);
  });

  it('when a later request of a call is refused for longer than the budget, then the call throws at once and returns nothing, though an earlier request was answered', async () => {
    const { token } = await newAccount(app.database.db, 'sending_access');
    const okBefore = await answered(limited.metrics, 200);
    const rejectedBefore = await answered(limited.metrics, 429);

    const outcome = await withClientClockStopped(() =>
      clientOf(limited.server, token, { timeoutMs: 800, concurrency: 1 }).filterSendable(uniqueEmails(1500)),
    );

    const error = rejection(outcome);
    expect(error).toBeInstanceOf(SuppressionCheckUnavailableError);
    expect((error as Error).message).toMatch(/429 rate_limit_exceeded, and the service asks to wait 1 s/);
    expect((error as Error).cause).toMatchObject({ statusCode: 429, code: 'rate_limit_exceeded' });
    expect(await answered(limited.metrics, 200)).toBe(okBefore + 1);
    expect(await answered(limited.metrics, 429)).toBe(rejectedBefore + 1);
  });
});

describe('PostgreSQL away', () => {
  it('when PostgreSQL cannot be reached, then SuppressionCheckUnavailableError is thrown within the budget, after retries, and nothing is returned as sendable', async () => {
    const db = await unreachableDatabase({ connectTimeoutMs: 300 });
    databases.push(db);
    const metrics = createMetrics();
    const server = await app.startApp({ db, metrics });
    const { token } = await newAccount(app.database.db, 'sending_access');

    const { ms, outcome } = await timed(() =>
      clientOf(server, token, { timeoutMs: 1500 }).filterSendable([uniqueEmail(), uniqueEmail()]),
    );

    const error = rejection(outcome) as SuppressionCheckUnavailableError;
    expect(error).toBeInstanceOf(SuppressionCheckUnavailableError);
    expect(error.message).toMatch(/^No suppression check within 1500 ms: \d+ attempt\(s\) failed, the last with 503/);
    expect(error.cause).toMatchObject({ statusCode: 503, code: 'service_unavailable' });
    expect(error.attempts).toBeGreaterThanOrEqual(4);
    expect(await answered(metrics, 503)).toBe(error.attempts);
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(1500 + 250);
  });

  it('when PostgreSQL stops and comes back during a call, then the call answers once it is back, after 503s, with the suppressed address left out', async () => {
    const proxy = await startTcpProxy(targetOf(app.database.url, 5432));
    proxies.push(proxy);
    const db = createDatabase({
      url: urlThrough(proxy, app.database.url),
      poolSize: 2,
      connectTimeoutMs: 300,
      logger: createLogger('silent'),
    });
    databases.push(db);
    const metrics = createMetrics();
    const server = await app.startApp({ db, metrics });
    const owner = await newApiAccount(app);
    const [gone, fine] = uniqueEmails(2);
    const entries = await suppress(owner.api, [gone!]);
    const client = clientOf(server, owner.token, { timeoutMs: 5000 });
    // A first call while PostgreSQL answers: the app now holds open connections, which the stop cuts.
    expect((await client.filterSendable([fine!])).sendable).toEqual([fine]);

    proxy.stop();
    const restart = setTimeout(() => proxy.start(), 500);
    const { ms, outcome } = await timed(() => client.filterSendable([fine!, gone!]));
    clearTimeout(restart);

    expect(outcome).toEqual({
      status: 'fulfilled',
      value: { sendable: [fine], suppressed: [entries.get(gone!)], invalid: [] },
    });
    expect(await answered(metrics, 503)).toBeGreaterThanOrEqual(1);
    expect(await answered(metrics, 200)).toBe(2);
    expect(proxy.refused).toBeGreaterThanOrEqual(1);
    // The restart was timed from just before the call.
    expect(ms).toBeGreaterThanOrEqual(490);
  });
});

describe('network failures', () => {
  it('when nothing listens at the base URL, then SuppressionCheckUnavailableError names the refused connection once the budget is spent', async () => {
    const client = createSuppressionClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: generateToken(),
      timeoutMs: 1000,
    });

    const { ms, outcome } = await timed(() => client.filterSendable([uniqueEmail()]));

    const error = rejection(outcome) as SuppressionCheckUnavailableError;
    expect(error).toBeInstanceOf(SuppressionCheckUnavailableError);
    expect(error.message).toMatch(/the last with a network error \(ECONNREFUSED\)/);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.attempts).toBeGreaterThanOrEqual(3);
    expect(ms).toBeGreaterThan(300);
    expect(ms).toBeLessThan(1000 + 250);
  });

  it('when the server takes the connection but never answers, then the attempt is cut at the deadline and SuppressionCheckUnavailableError says so', async () => {
    const sockets = new Set<net.Socket>();
    let requested: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (requested = resolve));
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => requested());
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    // The client's clock (its deadline and the timer that keeps it), moved only by the test: a
    // deadline measured on the machine's clock passes late whenever the machine is busy.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const client = createSuppressionClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: generateToken(),
        timeoutMs: 700,
      });

      let settled = false;
      const outcome = Promise.allSettled([client.check([uniqueEmail()])]).then(([result]) => {
        settled = true;
        return result;
      });
      await requestArrived;
      await vi.advanceTimersByTimeAsync(699);
      expect(settled, 'settled before the deadline').toBe(false);
      await vi.advanceTimersByTimeAsync(1);

      const error = rejection(await outcome) as SuppressionCheckUnavailableError;
      expect(error).toBeInstanceOf(SuppressionCheckUnavailableError);
      expect(error.message).toBe('No suppression check within 700 ms: attempt 1 got no answer in time.');
    } finally {
      vi.useRealTimers();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
