import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { parseSuppressionEvent, type SuppressionEvent } from '../../src/events/event-schema.js';
import type { RecordedEvent } from '../../src/events/event-repository.js';
import { openApiDocument } from '../../api/openapi-document.js';
import { WriteCoalescer } from '../../src/write-coalescer.js';
import { expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { bounceEvent } from '../support/test-events.js';
import { eventually } from '../support/test-queue.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

// The API with Redis and the file's events queue, and the real event worker on the same database.
const app = useTestApp({ redis: 'live', queues: true, rateLimitPerSecond: 10_000 });
useEventWorkerBeside(app, 100);

/** Text PostgreSQL cannot store: NUL, and a high surrogate with no low one after it. */
const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

/** An event as a mail system posts it, without `account_id`, which the key gives. */
function posted(accountId: string, email: string, diagnostic?: string): Record<string, unknown> {
  const event: Record<string, any> = { ...bounceEvent(accountId, email) };
  delete event['account_id'];
  if (diagnostic !== undefined) event['bounce'] = { ...event['bounce'], diagnostic };
  return event;
}

async function historyOf(accountId: string): Promise<{ email: string; bounce_diagnostic: string | null }[]> {
  const { rows } = await app.database.db.query<{ email: string; bounce_diagnostic: string | null }>({
    text: 'SELECT email, bounce_diagnostic FROM suppression_events WHERE account_id = $1',
    values: [accountId],
  });
  return rows;
}

describe('one account’s unstorable text never holds back another’s events', () => {
  it('when account B posts a bounce whose diagnostic holds NUL and an unpaired surrogate beside 50 bounces of account A, then all 51 are applied at their first attempt, B’s with those characters removed', async () => {
    const a = await newApiAccount(app);
    const b = await newApiAccount(app);
    const poisoned = uniqueEmail();
    const emails = Array.from({ length: 50 }, () => uniqueEmail());

    const answers = await Promise.all([
      b.api.post('/events', {
        events: [posted(b.accountId, poisoned, `smtp; 550 5.1.1 user unknown ${NUL} ${LONE_SURROGATE}!`)],
      }),
      ...emails.map((email) => a.api.post('/events', { events: [posted(a.accountId, email)] })),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(51).fill(202));

    const jobIds = answers.flatMap((answer) => answer.body.job_ids as string[]);
    await eventually(
      async () => (await historyOf(a.accountId)).length === 50 && (await historyOf(b.accountId)).length === 1,
      10_000,
      'every event recorded',
    );
    await eventually(
      async () => {
        const states = await Promise.all(jobIds.map((id) => app.events.queue.getJobState(id)));
        return states.every((state) => state === 'completed');
      },
      10_000,
      'every job completed',
    );
    const jobs = await Promise.all(jobIds.map((id) => app.events.queue.getJob(id)));
    expect(jobs.map((job) => job?.stacktrace ?? ['missing'])).toEqual(Array(51).fill([]));
    expect(await historyOf(b.accountId)).toEqual([
      { email: poisoned, bounce_diagnostic: 'smtp; 550 5.1.1 user unknown  \ufffd!' },
    ]);
    const listed = await a.api.post('/suppressions/check', { emails });
    expect(listed.body.suppressed).toHaveLength(50);
  });

  it('when the database refuses one event of a statement shared by several accounts, then that event alone fails, with the database’s reason, and the others commit', async () => {
    const accounts = await Promise.all([newApiAccount(app), newApiAccount(app), newApiAccount(app)]);
    const events: SuppressionEvent[] = accounts.flatMap((account) =>
      Array.from({ length: 4 }, () => parseSuppressionEvent(bounceEvent(account.accountId, uniqueEmail()))),
    );
    // Past the schema, which strips such text, as a producer of another version might leave it.
    const refused = { ...events[5]!, bounce: { ...events[5]!.bounce!, diagnostic: `550 ${NUL}` } };
    const batch = events.map((event, index) => (index === 5 ? refused : event));
    const writes: number[] = [];
    const coalescer = new WriteCoalescer<SuppressionEvent, RecordedEvent>(
      (items) => {
        writes.push(items.length);
        return recordEventBatch(app.database.db, items);
      },
      { maxBatch: batch.length, maxDelayMs: 60_000, maxInFlight: 1, isolateFailures: (e) => !isDatabaseUnavailable(e) },
    );

    const outcomes = await Promise.allSettled(batch.map((event) => coalescer.submit(event)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      batch.map((_, index) => (index === 5 ? 'rejected' : 'fulfilled')),
    );
    expect(String((outcomes[5] as PromiseRejectedResult).reason)).toMatch(/unicode|0x00|invalid byte/i);
    expect(writes[0]).toBe(batch.length);
    for (const account of accounts) {
      const expected = account === accounts[1] ? 3 : 4;
      expect(await historyOf(account.accountId)).toHaveLength(expected);
    }
  });
});

describe('text the API cannot store is refused, naming where', () => {
  let api: ApiClient;
  beforeAll(async () => {
    ({ api } = await newApiAccount(app));
  });

  it.each([
    ['NUL', NUL],
    ['an unpaired surrogate', LONE_SURROGATE],
    ['a low surrogate alone', '\udc00'],
  ])('when an allowlist note holds %s, then it answers 422 naming `note`, and adds no rule', async (_, text) => {
    const response = await api.post('/allowlist', { domain: 'example.org', note: `staff ${text}` });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`note`');
    expect((await api.get('/allowlist')).body.data).toEqual([]);
  });

  it('when a gzip body’s note holds NUL, then it is refused as the same body sent plain would be', async () => {
    const response = await fetch(`${app.server.url}/allowlist`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(await newApiAccount(app)).token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify({ domain: 'example.org', note: `staff ${NUL}` })),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toContain('`note`');
  });

  it('when a forced batch removal’s reason holds NUL, then it answers 422 naming `reason`, and removes nothing', async () => {
    const email = uniqueEmail();
    expect((await api.post('/suppressions', { email })).status).toBe(201);
    const response = await api.post('/suppressions/batch/remove', {
      emails: [email],
      force: true,
      reason: `gone${NUL}`,
    });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`reason`');
    expect((await api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
  });

  it('when a key of a body holds NUL, then it answers 422 saying so', async () => {
    const response = await api.request('PATCH', '/settings/suppressions', { body: { [`expiry${NUL}`]: 1 } });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('a key of the body');
  });

  it.each([
    ['a path', (email: string) => `/suppressions/${encodeURIComponent(email)}%00`, 'path and query'],
    ['a query', () => '/suppressions?origin=manual%00', '`origin`'],
    ['a search', () => '/suppressions?email=a%00*', '`email`'],
    ['a query’s name', () => '/suppressions?or%00igin=manual', 'path and query'],
  ])('when %s holds an encoded NUL, then it answers 422 validation_error saying where', async (_, pathOf, where) => {
    const response = await api.get(pathOf(uniqueEmail()));
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('NUL');
    expect(response.body.message).toContain(where);
  });

  it('when a body holds bytes that are not UTF-8 (an overlong encoding), then they read as U+FFFD and the request is answered as any other', async () => {
    const body = Buffer.concat([
      Buffer.from('{"domain":"example.net","note":"over'),
      Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]),
      Buffer.from('long"}'),
    ]);
    const response = await fetch(`${app.server.url}/allowlist`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(await newApiAccount(app)).token}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { note: string }).note).toMatch(/^over\ufffd+long$/);
  });

  it('when a text field is a megabyte long, then it answers 413 or 422, never 5xx', async () => {
    const statuses = await Promise.all([
      api.post('/allowlist', { domain: 'example.com', note: 'x'.repeat(1024 * 1024) }),
      api.post('/allowlist', { domain: 'example.com', note: 'x'.repeat(1000 * 1000 - 100) }),
      api.post('/suppressions/batch/remove', { emails: [uniqueEmail()], force: true, reason: 'y'.repeat(900_000) }),
    ]);
    expect(statuses.map((response) => response.status)).toEqual([413, 422, 422]);
  });
});

describe('events: evidence is stripped, identifiers refused', () => {
  it('when a posted event’s id holds NUL, then it answers 422 naming the event’s `event_id`, and queues nothing', async () => {
    const { api, accountId } = await newApiAccount(app);
    const event = { ...posted(accountId, uniqueEmail()), event_id: `evt-${randomUUID()}${NUL}` };
    const response = await api.post('/events', { events: [event] });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`events[0].event_id`');
  });

  it('when every free-text field of a posted bounce holds NUL and an unpaired surrogate, then it is applied with them removed', async () => {
    const { api, accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    const dirty = (text: string) => `${text}${NUL}${LONE_SURROGATE}`;
    const event = {
      ...posted(accountId, email),
      provider_message_id: dirty('message'),
      bounce: {
        type: 'permanent',
        sub_type: dirty('general'),
        status: dirty('5.1.1'),
        reply_code: dirty('550'),
        diagnostic: dirty('user unknown'),
        provider: dirty('mta'),
        remote_mta: dirty('mx.example.com'),
      },
    };
    expect((await api.post('/events', { events: [event] })).status).toBe(202);
    await eventually(async () => (await historyOf(accountId)).length === 1, 10_000, 'the event recorded');
    const { rows } = await app.database.db.query({
      text: `SELECT provider_message_id, bounce_sub_type, bounce_status, bounce_reply_code, bounce_diagnostic,
                    bounce_provider, bounce_remote_mta
               FROM suppression_events WHERE account_id = $1`,
      values: [accountId],
    });
    expect(rows[0]).toEqual({
      provider_message_id: 'message\ufffd',
      bounce_sub_type: 'general\ufffd',
      bounce_status: '5.1.1\ufffd',
      bounce_reply_code: '550\ufffd',
      bounce_diagnostic: 'user unknown\ufffd',
      bounce_provider: 'mta\ufffd',
      bounce_remote_mta: 'mx.example.com\ufffd',
    });
  });
});

/** Every documented operation whose request body is JSON, with its documented example. */
function jsonExamples(): { method: string; path: string; example: unknown }[] {
  const found: { method: string; path: string; example: unknown }[] = [];
  for (const [path, item] of Object.entries(openApiDocument().paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, any>)) {
      const content = operation?.requestBody?.content?.['application/json'];
      const examples = [
        ...(content?.example === undefined ? [] : [content.example]),
        ...Object.values((content?.examples ?? {}) as Record<string, { value: unknown }>).map((named) => named.value),
      ];
      for (const example of examples) found.push({ method: method.toUpperCase(), path, example });
    }
  }
  return found;
}

/** The paths (as key lists) of every string in a JSON value. */
function stringLeaves(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...at, index]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...at, key]));
  return [];
}

function withLeaf(value: unknown, at: (string | number)[], replace: (text: string) => string): unknown {
  if (at.length === 0) return replace(value as string);
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[at[0]!] = withLeaf(copy[at[0]!], at.slice(1), replace);
  return copy;
}

const OVERLONG = '\u0001overlong\u0001';
const HOSTILE: Record<string, (text: string) => string> = {
  NUL: (text) => `${text}${NUL}`,
  'an unpaired surrogate': (text) => `${LONE_SURROGATE}${text}`,
  'an overlong UTF-8 sequence': (text) => `${text}${OVERLONG}`,
};
const LONG: Record<string, (text: string) => string> = {
  'a megabyte': (text) => `${text}${'x'.repeat(1024 * 1024)}`,
  '900,000 characters': (text) => `${text}${'x'.repeat(900_000)}`,
};

describe('every text field of every documented JSON body, fuzzed', () => {
  it('when each string of each documented example holds NUL, an unpaired surrogate, an overlong UTF-8 sequence or a megabyte, then no answer is a 5xx and every refusal is in the error shape', async () => {
    const { token, accountId } = await newApiAccount(app);
    const examples = jsonExamples();
    expect(examples.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const { method, path, example } of examples) {
      // Parameters get a value of the right kind that names nothing of this account.
      const concrete = path.replace(/\{[^}]+\}/g, () => randomUUID());
      for (const [index, leaf] of stringLeaves(example).entries()) {
        // A long body costs its transfer and parse whichever field carries it: one field of each is enough.
        const variants = Object.entries(index === 0 ? { ...HOSTILE, ...LONG } : HOSTILE);
        for (const [name, hostile] of variants) {
          const body = withLeaf(example, leaf, hostile);
          // The marker, as JSON escapes it, becomes the overlong encoding of `/`: bytes no encoder writes.
          const parts = JSON.stringify(body).split(JSON.stringify(OVERLONG).slice(1, -1));
          const bytes = Buffer.concat(
            parts.flatMap((part, index) =>
              index === 0 ? [Buffer.from(part)] : [Buffer.from([0xc0, 0xaf]), Buffer.from(part)],
            ),
          );
          const response = await fetch(`${app.server.url}${concrete}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: bytes,
          });
          const answer = await response.text();
          const where = `${method} ${path} ${leaf.join('.')} with ${name}: ${response.status}`;
          if (response.status >= 500) failures.push(`${where} ${answer.slice(0, 200)}`);
          else if (response.status >= 400) {
            const parsed = JSON.parse(answer) as Record<string, unknown>;
            if (parsed['statusCode'] !== response.status || typeof parsed['message'] !== 'string')
              failures.push(`${where}: not the error shape`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Whatever the fuzz queued, an event of another account is applied as usual.
    const other = await newApiAccount(app);
    const email = uniqueEmail();
    expect((await other.api.post('/events', { events: [posted(other.accountId, email)] })).status).toBe(202);
    await eventually(async () => (await historyOf(other.accountId)).length === 1, 5000, 'the other account’s event');
    expect(accountId).not.toBe(other.accountId);
  });
});
