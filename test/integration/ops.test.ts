import net from 'node:net';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import type { Database } from '../../src/db/database.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { BATCHES_QUEUE, EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { useTestApp } from '../support/test-app.js';
import { unreachableDatabase } from '../support/unreachable.js';

const METRICS_TOKEN = 'metrics-secret-0123456789';
const ADMIN_TOKEN = 'admin-secret-0123456789';

const metrics = createMetrics();
/** METRICS_TOKEN and ADMIN_TOKEN set, both queues. */
const guarded = useTestApp({ queues: true, metrics, metricsToken: METRICS_TOKEN, adminToken: ADMIN_TOKEN });
/** Redis, no tokens. */
let plain: RunningServer;

beforeAll(async () => {
  plain = await guarded.startApp({ redis: 'live', rateLimitPerSecond: 10_000 });
});

/** A database handle where nothing answers, closed after the test. */
async function deadDatabase(port?: number): Promise<Database> {
  const db = await unreachableDatabase({ port });
  onTestFinished(() => db.close());
  return db;
}

describe('GET /ready', () => {
  it('when PostgreSQL and Redis answer, then it answers 200 with both checks ok, without an API key', async () => {
    const response = await apiClient(plain.url, null).get('/ready');

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('when Redis does not answer, then it answers 503 naming redis', async () => {
    const app = await guarded.startApp({ redis: 'unreachable' });
    const started = Date.now();
    const response = await apiClient(app.url, null).get('/ready');

    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(503);
    expect(response.body).toStrictEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });
  });

  it('when PostgreSQL does not answer, then it answers 503 naming database', async () => {
    const app = await guarded.startApp({ db: await deadDatabase(), redis: 'live' });
    const response = await apiClient(app.url, null).get('/ready');

    expect(response.status).toBe(503);
    expect(response.body).toStrictEqual({ status: 'unavailable', checks: { database: 'failed', redis: 'ok' } });
  });

  it('when /health is asked, then it answers 200 without an API key', async () => {
    const response = await apiClient(plain.url, null).get('/health');

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ status: 'ok' });
  });
});

describe('GET /metrics', () => {
  async function scrape(url: string, token?: string): Promise<{ status: number; text: string; type: string | null }> {
    const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
  }

  it('when no METRICS_TOKEN is set, then it answers without any key in the Prometheus text format', async () => {
    const { status, text, type } = await scrape(plain.url);

    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('when METRICS_TOKEN is set, then a missing or wrong token answers 401 JSON and the right one 200', async () => {
    const missing = await apiClient(guarded.server.url, null).get('/metrics');

    expect(missing.status).toBe(401);
    expect(missing.body).toStrictEqual({ statusCode: 401, name: 'unauthorized', message: expect.any(String) });
    expect((await scrape(guarded.server.url, 'wrong-token')).status).toBe(401);
    expect((await scrape(guarded.server.url, METRICS_TOKEN)).status).toBe(200);
  });

  it('when requests were served, then the histogram has samples by method, route pattern and status, never an address', async () => {
    const key = await newAccount(guarded.database.db);
    const api = apiClient(guarded.server.url, key.token);
    const email = uniqueEmail();

    expect((await api.get('/suppressions')).status).toBe(200);
    expect((await api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
    expect((await api.get('/no-such-route')).status).toBe(404);
    const { text } = await scrape(guarded.server.url, METRICS_TOKEN);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/suppressions",status="200"\} 1/);
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/suppressions\/:suppression",status="404"\} 1/,
    );
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/suppressions",status="200"\}/,
    );
    expect(text).not.toContain(email.split('@')[0]);
  });

  it('when scraped, then every metric of the service is listed, with queue depth for both queues and pool usage', async () => {
    await guarded.events.queue.add('bounce', { probe: true }, { delay: 60_000 });
    const { text } = await scrape(guarded.server.url, METRICS_TOKEN);

    for (const name of [
      'http_request_duration_seconds',
      'suppression_events_processed_total',
      'suppression_batch_entries_total',
      'bullmq_queue_jobs',
      'db_pool_connections_total',
      'db_pool_connections_idle',
      'db_pool_waiting_requests',
      'rate_limit_rejections_total',
      'rate_limit_redis_failures_total',
      'suppression_check_addresses_total',
      'bullmq_queue_oldest_waiting_job_seconds',
      'readiness_check_ok',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toMatch(/bullmq_queue_jobs\{queue="suppression-events",state="delayed"\} 1/);
    expect(text).toMatch(/bullmq_queue_jobs\{queue="suppression-batches",state="waiting"\} 0/);
    expect(text).toMatch(/db_pool_connections_total \d+/);
  });

  it('when addresses are checked, then suppression_check_addresses_total counts each valid one once, as suppressed or sendable', async () => {
    const key = await newAccount(guarded.database.db);
    const api = apiClient(guarded.server.url, key.token);
    const [suppressed, sendable] = [uniqueEmail(), uniqueEmail()];
    expect((await api.post('/suppressions', { email: suppressed })).status).toBe(201);
    const before = await scrape(guarded.server.url, METRICS_TOKEN);

    const check = await api.post('/suppressions/check', {
      emails: [suppressed, sendable, sendable.toUpperCase(), 'not-an-address'],
    });

    expect(check.status).toBe(200);
    const { text } = await scrape(guarded.server.url, METRICS_TOKEN);
    const count = (body: string, result: string): number =>
      Number(new RegExp(`^suppression_check_addresses_total\\{result="${result}"\\} (\\d+)`, 'm').exec(body)?.[1] ?? 0);
    expect(count(text, 'suppressed') - count(before.text, 'suppressed')).toBe(1);
    expect(count(text, 'sendable') - count(before.text, 'sendable')).toBe(1);
  });

  it('when a job has been waiting, then bullmq_queue_oldest_waiting_job_seconds gives its age, and 0 for a queue with none waiting', async () => {
    const job = await guarded.batches.queue.add('add', { probe: true }, { timestamp: Date.now() - 120_000 });
    onTestFinished(() => job.remove());

    const { text } = await scrape(guarded.server.url, METRICS_TOKEN);

    const age = Number(
      /^bullmq_queue_oldest_waiting_job_seconds\{queue="suppression-batches"\} ([\d.]+)/m.exec(text)?.[1],
    );
    expect(age).toBeGreaterThanOrEqual(120);
    expect(age).toBeLessThan(180);
    expect(text).toMatch(/^bullmq_queue_oldest_waiting_job_seconds\{queue="suppression-events"\} 0$/m);
  });

  it('when scraped, then readiness_check_ok is 1 for each check that answers and 0 for one that does not', async () => {
    const up = await scrape(plain.url);
    expect(up.text).toMatch(/^readiness_check_ok\{check="database"\} 1$/m);
    expect(up.text).toMatch(/^readiness_check_ok\{check="redis"\} 1$/m);

    const withoutRedis = await guarded.startApp({ redis: 'unreachable', metrics: createMetrics() });
    const down = await scrape(withoutRedis.url);

    expect(down.text).toMatch(/^readiness_check_ok\{check="database"\} 1$/m);
    expect(down.text).toMatch(/^readiness_check_ok\{check="redis"\} 0$/m);
  });

  it('when the rate limiter reports, then its counters move', async () => {
    metrics.rateLimitRejections.inc();
    metrics.rateLimitRedisFailures.inc();
    const { text } = await scrape(guarded.server.url, METRICS_TOKEN);

    expect(text).toMatch(/^rate_limit_rejections_total [1-9]/m);
    expect(text).toMatch(/^rate_limit_redis_failures_total [1-9]/m);
  });
});

describe('queue dashboard at /admin/queues', () => {
  const basic = (user: string, password: string): string =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  async function open(url: string, authorization?: string, path = '/admin/queues'): Promise<Response> {
    return fetch(`${url}${path}`, { headers: authorization ? { authorization } : {} });
  }

  it('when ADMIN_TOKEN is not set, then the path does not exist (404)', async () => {
    const response = await open(plain.url, `Bearer ${ADMIN_TOKEN}`);

    expect(response.status).toBe(404);
  });

  it.each([
    { what: 'no credentials', authorization: undefined },
    { what: 'a wrong bearer token', authorization: 'Bearer not-the-token' },
    { what: 'Basic auth with a wrong password', authorization: basic('admin', 'not-the-token') },
    { what: 'the token as the Basic user name', authorization: basic(ADMIN_TOKEN, 'x') },
  ])('when the request carries $what, then it answers 401 with a Basic challenge', async ({ authorization }) => {
    const response = await open(guarded.server.url, authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="suppression-list"');
  });

  it.each([
    { what: 'the bearer token', authorization: `Bearer ${ADMIN_TOKEN}` },
    { what: 'Basic auth with the token as password (any user)', authorization: basic('anyone', ADMIN_TOKEN) },
  ])('when the request carries $what, then the dashboard opens', async ({ authorization }) => {
    const page = await open(guarded.server.url, authorization);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const api = await open(guarded.server.url, authorization, '/admin/queues/api/queues');
    expect(api.status).toBe(200);
    const names = ((await api.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name).sort();
    expect(names).toStrictEqual([BATCHES_QUEUE, EVENTS_QUEUE].sort());
  });
});

describe('request ids and logs', () => {
  it('when x-request-id is sent, then it is echoed; when absent or unsafe, then one is made', async () => {
    const given = await fetch(`${plain.url}/health`, { headers: { 'x-request-id': 'req-123_abc' } });

    expect(given.headers.get('x-request-id')).toBe('req-123_abc');
    const made = await fetch(`${plain.url}/health`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await fetch(`${plain.url}/health`, { headers: { 'x-request-id': 'someone@example.com' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${plain.url}/health`, { headers: { 'x-request-id': 'a'.repeat(201) } });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when requests are logged at info, then lines carry the id and route, and never an address or a token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger('info', sink);
    const app = await guarded.startApp({ logger });
    const key = await newAccount(guarded.database.db);
    const email = uniqueEmail();
    const api = apiClient(app.url, key.token);
    await api.get(`/suppressions/${encodeURIComponent(email)}`, {
      headers: { 'x-request-id': 'trace-me-1', cookie: 'session=secret-cookie' },
    });
    await api.post('/suppressions', { email });
    await sleep(50);
    const logged = lines.join('\n');

    expect(logged).toContain('"id":"trace-me-1"');
    expect(logged).toContain('"route":"/suppressions/:suppression"');
    for (const line of lines) expect(line.match(/"route":/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(logged).not.toContain(email.split('@')[0]);
    expect(logged).not.toContain(key.token);
    expect(logged).not.toContain('secret-cookie');
  });
});

describe('hardening', () => {
  it('when any JSON answer is sent, then it carries the API security headers and no HTML-only ones', async () => {
    for (const path of ['/health', '/suppressions', '/nowhere', '/openapi.json']) {
      const response = await fetch(`${plain.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers.get('strict-transport-security'), path).toMatch(/max-age=/);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-powered-by'), path).toBeNull();
      for (const htmlOnly of [
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'referrer-policy',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-xss-protection',
      ]) {
        expect(response.headers.get(htmlOnly), `${path} ${htmlOnly}`).toBeNull();
      }
    }
  });

  it('when an answer may hold addresses, then no cache may keep it', async () => {
    const key = await newAccount(guarded.database.db);
    const responses = [
      await apiClient(plain.url, key.token).get('/suppressions'),
      await apiClient(plain.url, key.token).get(`/suppressions/${encodeURIComponent('someone@example.com')}`),
      await apiClient(plain.url, null).get('/suppressions'),
    ];

    expect(responses.map((r) => r.status)).toEqual([200, 404, 401]);
    for (const response of responses) expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when a page is served, then it carries a policy that lets the page run', async () => {
    const docs = await fetch(`${plain.url}/docs`);

    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    const dashboard = await fetch(`${guarded.server.url}/admin/queues`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('when a body is over 1 MB, then it answers 413 payload_too_large', async () => {
    const key = await newAccount(guarded.database.db);
    const response = await apiClient(plain.url, key.token).post('/suppressions/batch/add', {
      emails: ['x'.repeat(1024 * 1024 + 10)],
    });

    expect(response.status).toBe(413);
    expect(response.body.name).toBe('payload_too_large');
  });

  it('when the server is created, then request and header timeouts are set', () => {
    expect(plain.server.requestTimeout).toBe(300_000);
    expect(plain.server.headersTimeout).toBe(10_000);
  });

  async function timedApiCall(db: Database): Promise<{ ms: number; status: number; name: string }> {
    const app = await guarded.startApp({ db });
    const started = Date.now();
    const response = await apiClient(app.url, generateToken()).get('/suppressions');
    return { ms: Date.now() - started, status: response.status, name: response.body.name };
  }

  it('when PostgreSQL is stopped (closed port), then a request answers 503 service_unavailable within 2 s', async () => {
    const { ms, status, name } = await timedApiCall(await deadDatabase());

    expect({ status, name }).toStrictEqual({ status: 503, name: 'service_unavailable' });
    expect(ms).toBeLessThan(2000);
  });

  it('when PostgreSQL accepts connections but never answers, then a request answers 503 within 2 s', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as net.AddressInfo;

    const { ms, status, name } = await timedApiCall(await deadDatabase(port));

    expect({ status, name }).toStrictEqual({ status: 503, name: 'service_unavailable' });
    expect(ms).toBeLessThan(2000);
  });
});
