import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/openapi-document.js';
import type { IssuedApiKey } from '../../src/accounts/api-key-repository.js';
import { ERROR_CODES, type ErrorCode } from '../../src/error-codes.js';
import { newAccount, newKey, type TestAccount } from '../support/accounts.js';
import { captureLogs } from '../support/log-capture.js';
import { useTestApp } from '../support/test-app.js';

/**
 * Generated requests against every documented route and some that are not, with every method,
 * odd headers, encodings that do or do not decode, and bodies from the plausible to the hostile.
 * Whatever comes in: no 5xx, no hang, every 4xx in the JSON error shape with a code of the table,
 * nothing written to the database by a refused request, and no address or token in any log line.
 * The seed is fixed so that a failure repeats; `FUZZ_SEED` and `FUZZ_RUNS` run other cases.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 3000);
/** `POST /events` has a run of its own: among every route's requests, few would reach it with a valid key and body. */
const EVENT_RUNS = Math.ceil(RUNS / 10);
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`;

const logs = captureLogs('info');
const app = useTestApp({
  logger: logs.logger,
  redis: 'live',
  queues: true,
  // High enough that the generated requests reach the routes rather than the limits.
  rateLimitPerSecond: 1_000_000,
  authFailuresPerSecond: 1_000_000,
  metricsToken: METRICS_TOKEN,
  adminToken: ADMIN_TOKEN,
});
let full: TestAccount;
let restricted: IssuedApiKey;

beforeAll(async () => {
  full = await newAccount(app.database.db);
  restricted = await newKey(app.database.db, full.account, 'sending_access');
});

interface FuzzRequest {
  method: string;
  path: string;
  auth: 'full' | 'restricted' | 'none' | 'junk' | 'basic' | 'metrics' | 'admin';
  junkToken: string;
  contentType: string | undefined;
  encoding: 'identity' | 'gzip' | 'deflate' | 'br' | 'broken-gzip' | 'broken-deflate' | 'broken-br' | 'unknown';
  body: string | undefined;
  idempotencyKey: string | undefined;
  requestId: string | undefined;
}

const uuid = fc.uuid().map((value) => value.toString());

const address = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom(
    '\u212Aate@example.com',
    'Kate@Example.COM',
    '  spaced@example.com ',
    '\u0130nfo@example.com',
    'ü@example.com',
    'user@[127.0.0.1]',
    'no-at-sign',
    'a@b',
    '',
    `${'x'.repeat(300)}@example.com`,
  ),
  fc.string({ maxLength: 40 }),
);

/** A value for a path parameter, raw or percent-encoded, including encodings that do not decode. */
const segmentOf = (long: string[]) =>
  fc.oneof(
    uuid,
    address.map((value) => encodeURIComponent(value)),
    fc.constantFrom('%', '%E0%A4%A', '%zz', '..', '%2e%2e', 'batch', '%00', 'a%40b.co', ...long),
    fc.string({ maxLength: 30 }).map((value) => encodeURIComponent(value)),
  );
const pathSegment = segmentOf(['x'.repeat(3000)]);
// A second parameter gets no 3,000-character value: two of them and the 8 KiB junk credential would pass
// Node's 16 KiB header limit, which Node answers itself (a bare 431) before the app sees the request.
const laterSegment = segmentOf([]);

/** Every documented path, with its parameters filled in, and paths no route serves. */
const documentedPaths = [...new Set(routes.map((route) => route.path))];
const path = fc
  .oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...documentedPaths), pathSegment) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('/admin/queues', '/admin/queues/api/queues', '/', '/x'), pathSegment),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constant('/suppressions/{suppression}/extra'), pathSegment) },
    { weight: 1, arbitrary: fc.tuple(fc.constant('/suppressions'), fc.string({ maxLength: 20 })) },
  )
  .chain(([template, segment]) =>
    fc.tuple(
      fc.array(laterSegment, { minLength: 3, maxLength: 3 }).map((later) => {
        let filled = 0;
        return template.replace(/\{[^}]+\}/g, () => (filled++ === 0 ? segment : later[filled - 2]!));
      }),
      fc.option(
        fc.dictionary(
          fc.constantFrom(
            'limit',
            'after',
            'before',
            'origin',
            'token',
            'email',
            'domain',
            'created_after',
            'created_before',
            'x',
          ),
          fc.oneof(
            fc.string({ maxLength: 12 }),
            uuid,
            address,
            fc.constantFrom('0', '100', '101', '-1', '1e3', 'a*', '*', 'a*b', '%_\\*', 'example.com', '.com'),
            fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
            fc.constantFrom('2026-13-01T00:00:00Z', '2026-03-14', '2026-03-14T09:26:53+25:00'),
          ),
          { maxKeys: 3 },
        ),
        { nil: undefined },
      ),
    ),
  )
  .map(([base, query]) => (query ? `${base}?${new URLSearchParams(query).toString()}` : base));

/** Mostly a value the route takes, sometimes one it refuses. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: wrong });

/** Bounce and complaint events, most valid, some wrong in a field, a few naming another account. */
const event = fc
  .tuple(
    fc.record(
      {
        event_id: mostly(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom('', 'e'.repeat(300))),
        type: mostly(fc.constantFrom('complaint', 'bounce'), fc.constantFrom('reactivation', 'deferral')),
        email: mostly(fc.constantFrom('jane@example.com', ' Sam@Example.COM '), address),
        source_id: mostly(uuid, fc.string({ maxLength: 10 })),
        occurred_at: mostly(
          fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01') }).map((date) => date.toISOString()),
          fc.constantFrom('2026-11-21T20:30:06', 'yesterday'),
        ),
        bounce: fc.record(
          {
            type: mostly(fc.constantFrom('permanent', 'transient', 'undetermined'), fc.constant('hard')),
            status: fc.string({ maxLength: 40 }),
            reply_code: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
            diagnostic: fc.string({ maxLength: 100 }),
          },
          { requiredKeys: ['type'] },
        ),
        complaint: fc.record({ feedback_type: fc.string({ maxLength: 10 }) }),
        reactivation: fc.record({ provider: fc.constantFrom('postmark', 'Postmark!') }),
        scope: mostly(fc.constantFrom(null, 'newsletter'), fc.constantFrom('News Letter', 'x'.repeat(70))),
        feed_id: fc.string({ maxLength: 40 }),
      },
      { requiredKeys: ['event_id', 'type', 'email', 'source_id', 'occurred_at', 'bounce'] },
    ),
    mostly(fc.constant(undefined), uuid),
  )
  .map(([fields, accountId]) => (accountId === undefined ? fields : { ...fields, account_id: accountId }));

/** Objects nested far deeper than any valid body, as JSON text. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 100, max: 5000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const body = fc.oneof(
  address.map((email) => JSON.stringify({ email })),
  fc.array(address, { maxLength: 5 }).map((emails) => JSON.stringify({ emails })),
  fc.array(fc.oneof(uuid, fc.string({ maxLength: 10 })), { maxLength: 5 }).map((ids) => JSON.stringify({ ids })),
  fc
    .record({ emails: fc.array(address, { maxLength: 3 }), ids: fc.array(uuid, { maxLength: 3 }) })
    .map((value) => JSON.stringify(value)),
  fc.array(mostly(event, fc.jsonValue()), { maxLength: 3 }).map((events) => JSON.stringify({ events })),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  deeplyNested,
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{', '{"email":', 'null', '[]', '"x"', '{"__proto__":{"x":1}}', '{"email":"a@example.com"}garbage'),
  fc.constant(JSON.stringify({ emails: ['a@example.com'], padding: 'x'.repeat(1024 * 1024) })),
);

const request: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
  path,
  auth: fc.constantFrom('full', 'full', 'full', 'restricted', 'none', 'junk', 'basic', 'metrics', 'admin'),
  junkToken: fc.oneof(
    fc.string({ minLength: 1, maxLength: 60 }).filter((value) => /^[\x21-\x7e]+$/.test(value)),
    fc.constant(`sl_${'A'.repeat(43)}`),
    fc.constant('y'.repeat(8192)),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    undefined,
  ),
  encoding: fc.constantFrom(
    'identity',
    'identity',
    'gzip',
    'deflate',
    'br',
    'broken-gzip',
    'broken-deflate',
    'broken-br',
    'unknown',
  ),
  body: fc.option(body, { nil: undefined, freq: 3 }),
  idempotencyKey: fc.option(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constant('k'.repeat(300))), {
    nil: undefined,
  }),
  requestId: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
});

function encodeOnce(body: string, encoding: FuzzRequest['encoding']): Buffer {
  const raw = Buffer.from(body, 'utf8');
  if (encoding === 'gzip') return gzipSync(raw);
  if (encoding === 'deflate') return deflateSync(raw);
  if (encoding === 'br') return brotliCompressSync(raw);
  return raw;
}

/**
 * Each body as sent in each encoding, made once: the 1 MiB body comes back a couple of hundred
 * times, and compressing it anew each time cost more than sending it.
 */
const encodings = new Map<FuzzRequest['encoding'], Map<string, Buffer>>();
function encode(body: string, encoding: FuzzRequest['encoding']): Buffer {
  let bodies = encodings.get(encoding);
  if (bodies === undefined) encodings.set(encoding, (bodies = new Map()));
  let payload = bodies.get(body);
  if (payload === undefined) bodies.set(body, (payload = encodeOnce(body, encoding)));
  return payload;
}

function headersOf(input: FuzzRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  const credentials: Record<FuzzRequest['auth'], string | undefined> = {
    full: `Bearer ${full.token}`,
    restricted: `Bearer ${restricted.token}`,
    none: undefined,
    junk: `Bearer ${input.junkToken}`,
    basic: `Basic ${Buffer.from(`user:${input.junkToken}`).toString('base64')}`,
    metrics: `Bearer ${METRICS_TOKEN}`,
    admin: `Bearer ${ADMIN_TOKEN}`,
  };
  const authorization = credentials[input.auth];
  if (authorization !== undefined) headers['authorization'] = authorization;
  if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  if (input.encoding !== 'identity') headers['content-encoding'] = input.encoding.replace('broken-', '');
  if (input.encoding === 'unknown') headers['content-encoding'] = 'x-unknown';
  if (input.idempotencyKey !== undefined)
    headers['idempotency-key'] = input.idempotencyKey.replace(/[^\x20-\x7e]/g, '?');
  if (input.requestId !== undefined) headers['x-request-id'] = input.requestId.replace(/[^\x20-\x7e]/g, '?');
  return headers;
}

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

function send(input: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(app.server.url);
  const payload = input.body === undefined ? undefined : encode(input.body, input.encoding);
  const headers = headersOf(input);
  // Framed by its length whatever the method: Node sends a GET's or an OPTIONS' body unframed otherwise.
  if (payload !== undefined) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: hostname, port, method: input.method, path: input.path, headers, timeout: 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: response.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in 10 s to ${input.method} ${input.path}`)));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** A checksum of everything a request could write: the account's suppressions and its events. */
async function writtenState(): Promise<string> {
  const { rows } = await app.database.db.query<{ state: string }>({
    // Prepared once per connection: asked about 3,000 times.
    name: 'fuzz-written-state',
    text: `SELECT (SELECT count(*) || ':' || coalesce(sum(hashtext(id::text || email)), 0) FROM suppressions)
         || '/' || (SELECT count(*) FROM suppression_events) AS state`,
  });
  return rows[0]!.state;
}

/** What no log line may hold: the keys and tokens in play, and anything shaped like an address. */
function leaksIn(line: string): string[] {
  const secrets = [full.token, restricted.token, METRICS_TOKEN, ADMIN_TOKEN];
  const found = secrets.filter((secret) => line.includes(secret));
  const address = /[A-Za-z0-9._%+\u0080-\uffff-]+(?:@|%40)[A-Za-z0-9\u0080-\uffff-]+\.[A-Za-z]/.exec(line);
  if (address) found.push(address[0]);
  return found;
}

/** A refusal in the JSON error shape, with a code of the table and its status. */
function expectErrorOfTable(answer: Answer): void {
  expect(answer.contentType).toMatch(/^application\/json/);
  const error = JSON.parse(answer.text) as { statusCode: number; name: ErrorCode; message: string };
  expect(Object.keys(error).sort()).toEqual(['message', 'name', 'statusCode']);
  expect(error.statusCode).toBe(answer.status);
  expect(Object.keys(ERROR_CODES)).toContain(error.name);
  expect(ERROR_CODES[error.name].status).toBe(answer.status);
  expect(error.message.length).toBeGreaterThan(0);
}

/** Jobs on the file's events queue, in any state. */
async function queuedJobs(): Promise<number> {
  return app.events.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
}

describe('fuzzing every route', () => {
  it(`when ${RUNS} generated requests arrive (seed ${SEED}), then none answers 5xx or hangs, every refusal is an error of the table in the JSON shape and writes nothing, and no log line holds an address or a token`, async () => {
    const statuses = new Map<number, number>();
    // The state after a refusal, which wrote nothing (as checked), is the next request's state before.
    let unchanged: string | undefined;
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const before = unchanged ?? (await writtenState());
        unchanged = undefined;
        const answer = await send(input);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, `${input.method} ${input.path}`).toBeLessThan(500);
        if (answer.status < 400) return;
        const after = await writtenState();
        expect(after, 'a refused request wrote to the database').toBe(before);
        unchanged = after;
        // The queue dashboard's own API, behind the admin token, answers in the shape its page reads.
        if (input.method === 'HEAD' || (input.auth === 'admin' && /^\/admin\/queues(?:[/?]|$)/.test(input.path)))
          return;
        expectErrorOfTable(answer);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The run reached past the guards: some requests were served, and several kinds were refused.
    expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status >= 400).length).toBeGreaterThan(5);

    const leaks = logs.lines.flatMap((line) => leaksIn(line).map((leak) => `${leak} in ${line}`));
    expect(leaks).toEqual([]);
    expect(logs.lines.length).toBeGreaterThan(RUNS / 2);
  }, 300_000);

  it(`when ${EVENT_RUNS} generated lists of events are posted (seed ${SEED}), then each is queued whole with 202 or refused whole in the JSON shape, never 5xx`, async () => {
    const statuses = new Set<number>();
    // The queue's count after a refusal, which queued nothing (as checked), is the next request's before.
    let unchanged: number | undefined;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          auth: fc.constantFrom<FuzzRequest['auth']>('full', 'restricted'),
          body: fc.oneof(
            {
              weight: 4,
              arbitrary: fc.array(event, { minLength: 1, maxLength: 3 }).map((events) => JSON.stringify({ events })),
            },
            { weight: 1, arbitrary: body },
          ),
          encoding: fc.constantFrom<FuzzRequest['encoding']>('identity', 'gzip', 'broken-gzip'),
        }),
        async ({ auth, body: text, encoding }) => {
          const before = unchanged ?? (await queuedJobs());
          unchanged = undefined;
          const answer = await send({
            method: 'POST',
            path: '/events',
            auth,
            junkToken: '',
            contentType: 'application/json',
            encoding,
            body: text,
            idempotencyKey: undefined,
            requestId: undefined,
          });
          statuses.add(answer.status);
          expect(answer.status, text).toBeLessThan(500);
          if (answer.status === 202) {
            const events = (JSON.parse(text) as { events: unknown[] }).events;
            expect(JSON.parse(answer.text)).toMatchObject({ object: 'queued_events', count: events.length });
            return;
          }
          expectErrorOfTable(answer);
          const after = await queuedJobs();
          expect(after, 'a refused request queued an event').toBe(before);
          unchanged = after;
        },
      ),
      { seed: SEED, numRuns: EVENT_RUNS, endOnFailure: true },
    );
    expect(statuses).toContain(202);
    expect(statuses).toContain(422);
  }, 120_000);
});
