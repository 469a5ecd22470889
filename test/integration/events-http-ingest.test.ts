import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { eventJobId } from '../../src/events/job-id.js';
import { createLogger } from '../../src/logger.js';
import { startEventWorker, type EventWorker } from '../../workers/event-worker.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { queueConfig } from '../support/test-config.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { metricValue } from '../support/metric-value.js';
import { eventually } from '../support/test-queue.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';

// The API with Redis and the file's events queue, and the real event worker on the same database:
// an event posted over HTTP travels as it does in production.
// The rate limit is high enough for the tests' polling of the list.
const app = useTestApp({ redis: 'live', queues: true, rateLimitPerSecond: 10_000 });
let worker: EventWorker | undefined;
/** The same app with a Redis that never answers. */
let redisDown: RunningServer;

function startWorker(): EventWorker {
  worker = startEventWorker(queueConfig(app.events.prefix, { WORKER_CONCURRENCY: '20' }), {
    db: app.database.db,
    logger: createLogger('silent'),
    connection: app.events.connection,
  });
  return worker;
}

beforeAll(async () => {
  await startWorker().worker.waitUntilReady();
  redisDown = await app.startApp({ redis: 'unreachable', queues: true });
});
afterAll(async () => {
  await worker?.close();
});

/** An event as a mail system in any language writes it: without `account_id`, which the key gives. */
function posted(event: SuppressionEventInput): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...event };
  delete rest['account_id'];
  return rest;
}

/** Waits for the address to be on the list (in `scope`, or for the whole account), and returns its entry. */
async function entryOf(api: ApiClient, email: string, scope?: string) {
  let found: any;
  const path = `/suppressions/${encodeURIComponent(email)}${scope ? `?scope=${scope}` : ''}`;
  await eventually(
    async () => {
      const response = await api.get(path);
      found = response.body;
      return response.status === 200;
    },
    20_000,
    `the entry of ${email}`,
  );
  return found;
}

async function queuedIds(jobIds: readonly string[]): Promise<string[]> {
  const jobs = await Promise.all(jobIds.map((id) => app.events.queue.getJob(id)));
  return jobs.filter((job) => job !== undefined).map((job) => job.id!);
}

describe('POST /events', () => {
  let account: ApiAccount;
  beforeAll(async () => {
    account = await newApiAccount(app);
  });

  it('when a mail system posts a bounce and a complaint, then it answers 202 with their job ids, and the worker suppresses both addresses', async () => {
    const bounced = uniqueEmail();
    const complained = uniqueEmail();
    const bounce = bounceEvent(account.accountId, bounced);
    const complaint = { ...complaintEvent(account.accountId, complained), scope: 'newsletter' };

    const response = await account.api.post('/events', { events: [posted(bounce), posted(complaint)] });

    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      object: 'queued_events',
      count: 2,
      job_ids: [eventJobId(account.accountId, bounce.event_id), eventJobId(account.accountId, complaint.event_id)],
    });
    expect(await entryOf(account.api, bounced)).toMatchObject({ origin: 'bounce', source_id: bounce.source_id });
    expect(await entryOf(account.api, complained, 'newsletter')).toMatchObject({
      origin: 'complaint',
      scope: 'newsletter',
    });
  });

  it('when events are queued, then /metrics counts them by type in posted_events_total, and a refused request counts nothing', async () => {
    const countOf = async (type: string): Promise<number> =>
      (await metricValue(app.server, 'posted_events_total', { type })) ?? 0;
    const before = { bounce: await countOf('bounce'), complaint: await countOf('complaint') };
    const events = [
      bounceEvent(account.accountId, uniqueEmail()),
      bounceEvent(account.accountId, uniqueEmail()),
      complaintEvent(account.accountId, uniqueEmail()),
    ];

    expect((await account.api.post('/events', { events: events.map(posted) })).status).toBe(202);
    expect((await account.api.post('/events', { events: [{ ...posted(events[0]!), email: 'no' }] })).status).toBe(422);

    expect(await countOf('bounce')).toBe(before.bounce + 2);
    expect(await countOf('complaint')).toBe(before.complaint + 1);
  });

  it('when the same request is sent twice, then each event is queued once and applied once', async () => {
    const email = uniqueEmail();
    const events = [bounceEvent(account.accountId, email), complaintEvent(account.accountId, email)];
    // The worker waits while the requests are made, so that the queue shows what they left on it.
    await worker?.close();
    const first = await account.api.post('/events', { events: events.map(posted) });
    const second = await account.api.post('/events', { events: events.map(posted) });
    const waiting = (await app.events.queue.getWaiting()).map((job) => job.id);
    startWorker();

    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body).toEqual(first.body);
    expect(waiting.filter((id) => first.body.job_ids.includes(id)).sort()).toEqual([...first.body.job_ids].sort());
    expect(await entryOf(account.api, email)).toMatchObject({ origin: 'bounce' });
    await eventually(async () => (await account.api.get(`/suppressions/${email}/events`)).body.data.length === 2);
    const history = await account.api.get(`/suppressions/${email}/events`);
    expect(history.body.data.map((record: { event_id: string }) => record.event_id).sort()).toEqual(
      events.map((event) => event.event_id).sort(),
    );
  });

  it('when a request carries an Idempotency-Key and is sent again, then the first answer is replayed', async () => {
    const headers = { 'idempotency-key': `events-${uniqueEmail()}` };
    const body = { events: [posted(complaintEvent(account.accountId, uniqueEmail()))] };

    const first = await account.api.post('/events', body, { headers });
    const again = await account.api.post('/events', body, { headers });

    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('when an event names its account in capitals, or gives null, then it is the key’s account and is taken', async () => {
    const [named, unnamed] = [uniqueEmail(), uniqueEmail()];
    const capitals = { ...bounceEvent(account.accountId, named), account_id: account.accountId.toUpperCase() };
    const nothing = { ...bounceEvent(account.accountId, unnamed), account_id: null };

    const response = await account.api.post('/events', { events: [capitals, nothing] });

    expect(response.status).toBe(202);
    expect(response.body.job_ids).toEqual([
      eventJobId(account.accountId, capitals.event_id),
      eventJobId(account.accountId, nothing.event_id),
    ]);
    expect(await entryOf(account.api, named)).toMatchObject({ origin: 'bounce' });
    expect(await entryOf(account.api, unnamed)).toMatchObject({ origin: 'bounce' });
  });

  it('when some events are invalid, then it answers 422 naming each by its index, and queues none of the request', async () => {
    const valid = bounceEvent(account.accountId, uniqueEmail());
    const withoutBounce = { ...bounceEvent(account.accountId, uniqueEmail()), bounce: undefined };
    const events = [
      posted(valid),
      { ...posted(complaintEvent(account.accountId, uniqueEmail())), email: 'not-an-address' },
      posted(complaintEvent(account.accountId, uniqueEmail())),
      posted(withoutBounce),
      'a line of a log',
    ];

    const response = await account.api.post('/events', { events });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/^3 of 5 events are invalid, and nothing was queued: /);
    expect(response.body.message).toContain('`events[1].email` is not a valid email address');
    expect(response.body.message).toContain('`events[3].bounce` is required when type is bounce');
    expect(response.body.message).toContain('`events[4]` must be an event: a JSON object');
    expect(response.body.message).not.toMatch(/events\[0\]|events\[2\]/);
    expect(await queuedIds([eventJobId(account.accountId, valid.event_id)])).toEqual([]);
  });

  it('when more than ten events are invalid, then the first ten are spelled out and the others named by index', async () => {
    const events = Array.from({ length: 14 }, () => ({
      ...posted(bounceEvent(account.accountId, uniqueEmail())),
      type: 'deferral',
    }));

    const response = await account.api.post('/events', { events });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`events[9].type` must be one of bounce, complaint, reactivation');
    expect(response.body.message).toMatch(
      /; 4 more invalid: events\[10\], events\[11\], events\[12\], events\[13\]\.$/,
    );
  });

  it('when an event names another account, then the whole request is refused with 422 and nothing is queued', async () => {
    const other = await newAccount(app.database.db);
    const own = bounceEvent(account.accountId, uniqueEmail());
    const foreign = bounceEvent(other.accountId, uniqueEmail());

    const response = await account.api.post('/events', { events: [posted(own), foreign] });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(
      '1 of 2 events is invalid, and nothing was queued: `events[1].account_id` must be the API key’s account, or be left out.',
    );
    expect(
      await queuedIds([eventJobId(account.accountId, own.event_id), eventJobId(other.accountId, foreign.event_id)]),
    ).toEqual([]);
  });

  it('when an event sets feed_id, then it is ignored: only the service’s feeds name themselves in the history', async () => {
    const email = uniqueEmail();
    const event = { ...posted(bounceEvent(account.accountId, email)), feed_id: `feed_${'A'.repeat(32)}` };

    expect((await account.api.post('/events', { events: [event] })).status).toBe(202);
    await entryOf(account.api, email);
    const history = await account.api.get(`/suppressions/${email}/events`);
    expect(history.body.data[0].actor).toMatchObject({ type: 'queue' });
  });

  it('when 1,000 events are posted, then all are queued; when 1,001 are, then none is', async () => {
    const events = (count: number) =>
      Array.from({ length: count }, () => posted(bounceEvent(account.accountId, uniqueEmail(), 'undetermined')));

    const taken = await account.api.post('/events', { events: events(1000) });
    const refused = await account.api.post('/events', { events: events(1001) });

    expect(taken.status).toBe(202);
    expect(taken.body.count).toBe(1000);
    expect(new Set(taken.body.job_ids).size).toBe(1000);
    expectError(refused, 422, 'validation_error');
    expect(refused.body.message).toBe('`events` must hold at most 1,000 events; send more in several requests.');
  });
});

describe('POST /events: keys', () => {
  it('when a sending_access key posts events, then they are taken for its account', async () => {
    const { account, accountId } = await newAccount(app.database.db);
    const sending = await newKey(app.database.db, account, 'sending_access');
    const email = uniqueEmail();

    const response = await apiClient(app.server.url, sending.token).post('/events', {
      events: [posted(complaintEvent(accountId, email))],
    });

    expect(response.status).toBe(202);
    const full = (await newKey(app.database.db, account)).token;
    expect(await entryOf(apiClient(app.server.url, full), email)).toMatchObject({ origin: 'complaint' });
  });

  it.each(['full_access', 'sending_access'] as const)(
    'when a %s key posts a reactivation, then it answers 422 naming the type, queues nothing, and a complaint’s entry stays',
    async (permission) => {
      const { account, accountId, token } = await newAccount(app.database.db);
      const key = permission === 'full_access' ? token : (await newKey(app.database.db, account, permission)).token;
      const email = uniqueEmail();
      const full = apiClient(app.server.url, token);
      expect((await full.post('/events', { events: [posted(complaintEvent(accountId, email))] })).status).toBe(202);
      await entryOf(full, email);
      const reactivation = {
        ...posted(complaintEvent(accountId, email)),
        type: 'reactivation',
        complaint: undefined,
        reactivation: { provider: 'postmark' },
        feed_id: `feed_${'A'.repeat(32)}`,
      };

      const response = await apiClient(app.server.url, key).post('/events', { events: [reactivation] });

      expectError(response, 422, 'validation_error');
      expect(response.body.message).toContain('`events[0].type` must be bounce or complaint');
      expect(response.body.message).not.toContain('feed_id');
      expect((await full.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
    },
  );

  it('when a sending_access key asks for anything else of the list, then it is still refused', async () => {
    const { account } = await newAccount(app.database.db);
    const sending = await newKey(app.database.db, account, 'sending_access');

    expectError(await apiClient(app.server.url, sending.token).get('/suppressions'), 401, 'restricted_api_key');
  });

  it('when there is no key, or a revoked one, then nothing is taken', async () => {
    const { account, accountId } = await newAccount(app.database.db);
    const revoked = await newKey(app.database.db, account, 'sending_access');
    await revokeApiKey(app.database.db, revoked.keyId);
    const event = bounceEvent(accountId, uniqueEmail());
    const body = { events: [posted(event)] };

    expectError(await apiClient(app.server.url, null).post('/events', body), 401, 'missing_api_key');
    expectError(await apiClient(app.server.url, revoked.token).post('/events', body), 403, 'invalid_api_key');
    expect(await queuedIds([eventJobId(accountId, event.event_id)])).toEqual([]);
  });
});

describe('POST /events: bodies it cannot take', () => {
  let api: ApiClient;
  beforeAll(async () => {
    api = (await newApiAccount(app)).api;
  });

  it.each([
    ['not JSON', '{"events": [', 'The request body must be a valid JSON object.'],
    ['a list', '[]', 'The request body must be a JSON object with `events`: a list of 1 to 1,000 events.'],
    ['without events', '{}', '`events` is required: a list of 1 to 1,000 events.'],
    ['with events that are no list', '{"events": {"type": "bounce"}}', '`events` must be a list of 1 to 1,000 events.'],
    ['with no events', '{"events": []}', '`events` must hold at least one event.'],
  ])('when the body is %s, then it answers 422 saying what is wrong', async (_case, rawBody, message) => {
    const response = await api.request('POST', '/events', { rawBody });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });

  it('when the body is not sent as JSON, then it answers 422 asking for the JSON object', async () => {
    const response = await api.request('POST', '/events', {
      rawBody: '{"events": []}',
      headers: { 'content-type': 'text/plain' },
    });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/^The request body must be a JSON object with `events`/);
  });

  it('when the body is over 1 MB, then it answers 413', async () => {
    const diagnostic = 'x'.repeat(2000);
    const events = Array.from({ length: 600 }, () => ({
      ...posted(bounceEvent('00000000-0000-4000-8000-000000000000', uniqueEmail())),
      bounce: { type: 'permanent', diagnostic },
    }));

    expectError(await api.post('/events', { events }), 413, 'payload_too_large');
  });

  it('when the method is not POST, then it answers 405 with the methods it has', async () => {
    const response = await api.request('PUT', '/events', { body: { events: [] } });

    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('POST /events with Redis unreachable', () => {
  it('when the queue cannot be reached, then it answers 503 at once, and the sender retries', async () => {
    const { accountId, token } = await newAccount(app.database.db);
    const started = Date.now();

    const response = await apiClient(redisDown.url, token).post('/events', {
      events: [posted(bounceEvent(accountId, uniqueEmail()))],
    });

    expectError(response, 503, 'service_unavailable');
    expect(response.body.message).toBe('The event queue is unavailable. Try again shortly.');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('when the API runs without an event queue, then it answers 503 rather than taking events it cannot queue', async () => {
    const withoutQueue = await app.startApp({ redis: 'live' });
    const { accountId, token } = await newAccount(app.database.db);

    const response = await apiClient(withoutQueue.url, token).post('/events', {
      events: [posted(bounceEvent(accountId, uniqueEmail()))],
    });

    expectError(response, 503, 'service_unavailable');
    expect(response.body.message).toBe('The event queue is not available.');
  });
});

describe('GET /events/schema.json', () => {
  it('when it is fetched without a key, then it is the JSON Schema committed in docs/events.schema.json', async () => {
    const response = await apiClient(app.server.url, null).get('/events/schema.json');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const committed: unknown = JSON.parse(
      readFileSync(new URL('../../docs/events.schema.json', import.meta.url), 'utf8'),
    );
    expect(response.body).toEqual(committed);
  });

  it('when it is fetched with HEAD and no key, then it answers 200 too', async () => {
    const response = await fetch(`${app.server.url}/events/schema.json`, { method: 'HEAD' });

    expect(response.status).toBe(200);
  });
});
