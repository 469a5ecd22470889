import { randomUUID } from 'node:crypto';
import { Resend } from 'resend';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { dispatchChanges, recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';
import { newAccount } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { useTestApp } from '../support/test-app.js';

/** What the app's `queue` was handed, and whether it should fail as a Redis outage would. */
const queued: DueDelivery[] = [];
let queueFails = false;

const app = useTestApp({
  redis: 'live',
  rateLimitPerSecond: 10_000,
  webhooks: {
    allowPrivateEndpoints: true,
    queue: (due) => {
      if (queueFails) return Promise.reject(new Error('Redis is away'));
      queued.push(...due);
      return Promise.resolve();
    },
  },
});

const BOTH = ['suppression.added', 'suppression.removed'] as const;
const EVENT_ID = /^msg_[0-9a-f]{32}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Resend's own SDK, pointed at `server` (the file's app unless said), for a brand-new account. */
async function newClient(server?: RunningServer): Promise<{ resend: Resend; accountId: string; token: string }> {
  const key = await newAccount(app.database.db);
  const resend = new Resend(key.token, { baseUrl: (server ?? app.server).url });
  return { resend, accountId: key.accountId, token: key.token };
}

/** The data of a successful SDK call; fails the test when the SDK reports an error. */
function dataOf<T>(response: { data: T | null; error: unknown }): T {
  expect(response.error).toBeNull();
  expect(response.data).not.toBeNull();
  return response.data as T;
}

function notFound(message: string) {
  return { statusCode: 404, name: 'not_found', message };
}

function invalid(message: string) {
  return { statusCode: 422, name: 'validation_error', message };
}

/** Creates webhooks one request at a time, so that their ids (and so their order) are distinct; oldest first. */
async function createInOrder(resend: Resend, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    ids.push(
      dataOf(await resend.webhooks.create({ endpoint: `http://127.0.0.1:9/${index}`, events: ['suppression.added'] }))
        .id,
    );
  }
  return ids;
}

describe('managing webhooks through the SDK', () => {
  it('when a webhook is created, then get shows it enabled, as created, with the whsec_ secret of at least 24 random bytes that create returned', async () => {
    const { resend } = await newClient();

    const created = dataOf(
      await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
    );
    expect(created).toEqual({
      object: 'webhook',
      id: expect.stringMatching(UUID_V7),
      signing_secret: expect.stringMatching(SECRET),
    });
    expect(Buffer.from(created.signing_secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    expect(dataOf(await resend.webhooks.get(created.id))).toEqual({
      object: 'webhook',
      id: created.id,
      created_at: expect.stringMatching(ISO_MS),
      status: 'enabled',
      endpoint: 'https://hooks.example.com/in',
      events: [...BOTH],
      signing_secret: created.signing_secret,
    });
  });

  it('when two webhooks are created, then each has a secret of its own', async () => {
    const { resend } = await newClient();
    const first = dataOf(await resend.webhooks.create({ endpoint: 'https://hooks.example.com/a', events: [...BOTH] }));
    const second = dataOf(await resend.webhooks.create({ endpoint: 'https://hooks.example.com/b', events: [...BOTH] }));

    expect(second.signing_secret).not.toBe(first.signing_secret);
  });

  it('when the same event type is subscribed twice, then the webhook lists it once', async () => {
    const { resend } = await newClient();
    const { id } = dataOf(
      await resend.webhooks.create({
        endpoint: 'https://hooks.example.com/in',
        events: ['suppression.removed', 'suppression.removed'],
      }),
    );

    expect(dataOf(await resend.webhooks.get(id)).events).toEqual(['suppression.removed']);
  });

  it('when an account has four webhooks, then list pages them newest first with limit, after and before, without secrets', async () => {
    const { resend } = await newClient();
    const newestFirst = (await createInOrder(resend, 4)).reverse();

    const all = dataOf(await resend.webhooks.list());
    expect(all.object).toBe('list');
    expect(all.has_more).toBe(false);
    expect(all.data.map((webhook) => webhook.id)).toEqual(newestFirst);
    expect(all.data[0]).toEqual({
      id: newestFirst[0],
      endpoint: 'http://127.0.0.1:9/3',
      created_at: expect.stringMatching(ISO_MS),
      status: 'enabled',
      events: ['suppression.added'],
    });

    const first = dataOf(await resend.webhooks.list({ limit: 2 }));
    expect({ ids: first.data.map((webhook) => webhook.id), has_more: first.has_more }).toEqual({
      ids: newestFirst.slice(0, 2),
      has_more: true,
    });
    const second = dataOf(await resend.webhooks.list({ limit: 2, after: newestFirst[1] }));
    expect({ ids: second.data.map((webhook) => webhook.id), has_more: second.has_more }).toEqual({
      ids: newestFirst.slice(2),
      has_more: false,
    });
    const back = dataOf(await resend.webhooks.list({ limit: 2, before: newestFirst[3] }));
    expect({ ids: back.data.map((webhook) => webhook.id), has_more: back.has_more }).toEqual({
      ids: newestFirst.slice(1, 3),
      has_more: true,
    });
  });

  it('when list is given a bad limit, a cursor that is not a webhook id, or both cursors, then the SDK reports a 422 naming it', async () => {
    const { resend, token } = await newClient();
    const api = apiClient(app.server.url, token);

    expect((await resend.webhooks.list({ limit: 101 })).error).toEqual(
      invalid('`limit` must be a whole number from 1 to 100.'),
    );
    expect((await resend.webhooks.list({ after: 'msg_123' })).error).toEqual(
      invalid('`after` must be a webhook id (a UUID).'),
    );
    expect((await api.get(`/webhooks?after=${newId()}&before=${newId()}`)).body).toEqual(
      invalid('`after` and `before` cannot be used together.'),
    );
  });

  it('when a webhook is updated field by field, then get shows each change and the fields left out keep their values', async () => {
    const { resend } = await newClient();
    const { id, signing_secret } = dataOf(
      await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: ['suppression.added'] }),
    );

    expect(dataOf(await resend.webhooks.update(id, { endpoint: 'http://127.0.0.1:8080/hooks' }))).toEqual({
      object: 'webhook',
      id,
    });
    expect(dataOf(await resend.webhooks.get(id))).toMatchObject({
      endpoint: 'http://127.0.0.1:8080/hooks',
      events: ['suppression.added'],
      status: 'enabled',
    });

    dataOf(await resend.webhooks.update(id, { events: ['suppression.removed'], status: 'disabled' }));
    expect(dataOf(await resend.webhooks.get(id))).toMatchObject({
      endpoint: 'http://127.0.0.1:8080/hooks',
      events: ['suppression.removed'],
      status: 'disabled',
      signing_secret,
    });

    dataOf(await resend.webhooks.update(id, { status: 'enabled' }));
    expect(dataOf(await resend.webhooks.get(id)).status).toBe('enabled');
  });

  it('when an update is empty, names a status or event that does not exist, or is not JSON, then it is a 422 and nothing changes', async () => {
    const { resend, token } = await newClient();
    const { id } = dataOf(
      await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
    );
    const api = apiClient(app.server.url, token);

    expect((await resend.webhooks.update(id, {})).error).toEqual(
      invalid('Provide at least one of `endpoint`, `events` or `status`.'),
    );
    expect((await resend.webhooks.update(id, { status: 'paused' as 'disabled' })).error).toEqual(
      invalid('`status` must be one of enabled, disabled.'),
    );
    expect((await resend.webhooks.update(id, { events: ['email.bounced'] })).error).toEqual(
      invalid('`events[0]` must be one of suppression.added, suppression.removed.'),
    );
    expect((await resend.webhooks.update(id, { endpoint: 'ftp://hooks.example.com/in' })).error).toEqual(
      invalid('`endpoint` must be an http:// or https:// URL.'),
    );
    const malformed = await api.request('PATCH', `/webhooks/${id}`, {
      rawBody: '{"status":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.body).toEqual(invalid('The request body must be a valid JSON object.'));

    expect(dataOf(await resend.webhooks.get(id))).toMatchObject({
      endpoint: 'https://hooks.example.com/in',
      events: [...BOTH],
      status: 'enabled',
    });
  });

  it('when the signing secret is rotated, then rotate returns a new secret and get shows it', async () => {
    const { resend } = await newClient();
    const { id, signing_secret: original } = dataOf(
      await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
    );

    const rotated = dataOf(await resend.webhooks.rotateSigningSecret(id));
    expect(rotated).toEqual({ object: 'webhook', id, signing_secret: expect.stringMatching(SECRET) });
    expect(rotated.signing_secret).not.toBe(original);
    expect(Buffer.from(rotated.signing_secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(dataOf(await resend.webhooks.get(id)).signing_secret).toBe(rotated.signing_secret);
  });

  it('when a webhook is removed, then remove answers deleted true, and get, update, rotate and a second remove are 404', async () => {
    const { resend } = await newClient();
    const [kept, removed] = await createInOrder(resend, 2);

    expect(dataOf(await resend.webhooks.remove(removed!))).toEqual({ object: 'webhook', id: removed, deleted: true });

    const gone = notFound('Webhook not found.');
    expect((await resend.webhooks.get(removed!)).error).toEqual(gone);
    expect((await resend.webhooks.update(removed!, { status: 'disabled' })).error).toEqual(gone);
    expect((await resend.webhooks.rotateSigningSecret(removed!)).error).toEqual(gone);
    expect((await resend.webhooks.remove(removed!)).error).toEqual(gone);
    expect(dataOf(await resend.webhooks.list()).data.map((webhook) => webhook.id)).toEqual([kept]);
  });

  it('when another account asks for, lists, updates, rotates or removes a webhook, then it is 404 to it and untouched', async () => {
    const { resend: owner } = await newClient();
    const { resend: stranger } = await newClient();
    const { id, signing_secret } = dataOf(
      await owner.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
    );

    const gone = notFound('Webhook not found.');
    expect((await stranger.webhooks.get(id)).error).toEqual(gone);
    expect((await stranger.webhooks.update(id, { status: 'disabled' })).error).toEqual(gone);
    expect((await stranger.webhooks.rotateSigningSecret(id)).error).toEqual(gone);
    expect((await stranger.webhooks.remove(id)).error).toEqual(gone);
    expect((await stranger.webhooks.events.list({ webhookId: id })).error).toEqual(gone);
    expect(dataOf(await stranger.webhooks.list()).data).toEqual([]);

    expect(dataOf(await owner.webhooks.get(id))).toMatchObject({ status: 'enabled', signing_secret });
  });

  it('when the webhook id of the path is not a UUID, then it is an unknown webhook: 404', async () => {
    const { resend } = await newClient();

    expect((await resend.webhooks.get('not-a-webhook')).error).toEqual(notFound('Webhook not found.'));
    expect((await resend.webhooks.remove('42')).error).toEqual(notFound('Webhook not found.'));
  });

  it('when the id is in upper case, then it names the same webhook', async () => {
    const { resend } = await newClient();
    const { id } = dataOf(
      await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
    );

    expect(dataOf(await resend.webhooks.get(id.toUpperCase())).id).toBe(id);
  });

  it('when an event type is not one the service sends, then create is a 422 naming it, and nothing is created', async () => {
    const { resend } = await newClient();

    expect(
      (
        await resend.webhooks.create({
          endpoint: 'https://hooks.example.com/in',
          events: ['suppression.added', 'email.bounced'],
        })
      ).error,
    ).toEqual(invalid('`events[1]` must be one of suppression.added, suppression.removed.'));
    expect((await resend.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [] })).error).toEqual(
      invalid('`events` must have at least 1 item.'),
    );
    expect(
      (await resend.webhooks.create({ endpoint: 42 as unknown as string, events: ['suppression.added'] })).error,
    ).toEqual(invalid('`endpoint` must be a string.'));
    expect(dataOf(await resend.webhooks.list()).data).toEqual([]);
  });

  it('when create is retried with the same idempotency key, then the same webhook and secret come back and only one exists', async () => {
    const { resend } = await newClient();
    const options = { headers: { 'Idempotency-Key': randomUUID() } };
    const body = { endpoint: 'https://hooks.example.com/in', events: [...BOTH] };

    const first = dataOf(await resend.webhooks.create(body, options));
    const again = dataOf(await resend.webhooks.create(body, options));

    expect(again).toEqual(first);
    expect(dataOf(await resend.webhooks.list()).data.map((webhook) => webhook.id)).toEqual([first.id]);
  });

  it('when the key may only send, then every webhook call is refused with restricted_api_key', async () => {
    const { resend: owner } = await newClient();
    const { id } = dataOf(await owner.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }));
    const sender = new Resend((await newAccount(app.database.db, 'sending_access')).token, { baseUrl: app.server.url });
    const restricted = {
      statusCode: 401,
      name: 'restricted_api_key',
      message: 'This API key is restricted to sending emails. Use a key with full access.',
    };
    const eventId = `msg_${randomUUID().replaceAll('-', '')}`;

    const calls = [
      sender.webhooks.create({ endpoint: 'https://hooks.example.com/in', events: [...BOTH] }),
      sender.webhooks.list(),
      sender.webhooks.get(id),
      sender.webhooks.update(id, { status: 'disabled' }),
      sender.webhooks.remove(id),
      sender.webhooks.rotateSigningSecret(id),
      sender.webhooks.events.list({ webhookId: id }),
      sender.webhooks.events.get({ webhookId: id, eventId }),
      sender.webhooks.events.replay({ webhookId: id, eventId }),
      sender.webhooks.events.attempts.list({ webhookId: id, eventId }),
    ];
    for (const response of await Promise.all(calls)) expect(response.error).toEqual(restricted);
  });

  it('when the key is unknown or missing, then the call is refused before anything is read', async () => {
    const stranger = new Resend('re_notAKeyThisServiceIssued', { baseUrl: app.server.url });

    expect((await stranger.webhooks.list()).error).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    expect((await apiClient(app.server.url, null).get('/webhooks')).body).toMatchObject({
      statusCode: 401,
      name: 'missing_api_key',
    });
  });

  it('when a path is called with a method it does not serve, then 405 lists the allowed ones', async () => {
    const { token } = await newClient();
    const response = await apiClient(app.server.url, token).request('PUT', `/webhooks/${newId()}`);

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it.each([
    'http://127.0.0.1:8080/hooks',
    'https://127.0.0.1/hooks',
    'https://10.0.0.5/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hooks',
    'https://[fd00:ec2::254]/hooks',
    'https://localhost/hooks',
    'https://0x7f.1/hooks',
  ])('when private endpoints are allowed and the endpoint is %s, then it is accepted', async (endpoint) => {
    const { resend } = await newClient();
    const { id } = dataOf(await resend.webhooks.create({ endpoint, events: ['suppression.added'] }));

    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe(endpoint);
  });

  it('when private endpoints are allowed, then an endpoint with credentials is still refused', async () => {
    const { resend } = await newClient();

    expect(
      (await resend.webhooks.create({ endpoint: 'http://user:secret@127.0.0.1/hooks', events: [...BOTH] })).error,
    ).toEqual(invalid('`endpoint` must not contain credentials.'));
  });
});

describe('endpoint checks when private endpoints are not allowed', () => {
  let strict: RunningServer;

  beforeAll(async () => {
    strict = await app.startApp({ webhooks: { allowPrivateEndpoints: false } });
  });

  it('when the endpoint is http://, then it is refused: only https:// is taken', async () => {
    const { resend } = await newClient(strict);

    expect((await resend.webhooks.create({ endpoint: 'http://93.184.215.14/hooks', events: [...BOTH] })).error).toEqual(
      invalid('`endpoint` must be an https:// URL.'),
    );
  });

  it.each([
    { endpoint: 'http://127.0.0.1/hooks', problem: 'must be an https:// URL.' },
    { endpoint: 'https://127.0.0.1/hooks', problem: /^must not point at a private.*\(127\.0\.0\.1\)\.$/ },
    { endpoint: 'https://10.0.0.5/hooks', problem: /\(10\.0\.0\.5\)\.$/ },
    { endpoint: 'https://169.254.169.254/latest/meta-data', problem: /\(169\.254\.169\.254\)\.$/ },
    { endpoint: 'https://[::1]/hooks', problem: /\(::1\)\.$/ },
    { endpoint: 'https://[fd00:ec2::254]/hooks', problem: /\(fd00:ec2::254\)\.$/ },
    { endpoint: 'https://localhost/hooks', problem: /^must not resolve to a private.*\(localhost is .+\)\.$/ },
    { endpoint: 'https://0x7f.1/hooks', problem: /\(127\.0\.0\.1\)\.$/ },
    { endpoint: 'https://user:secret@93.184.215.14/hooks', problem: 'must not contain credentials.' },
    { endpoint: 'hooks.example.com/in', problem: 'must be an absolute URL.' },
  ])(
    'when the endpoint is $endpoint, then create refuses it with a 422 naming endpoint',
    async ({ endpoint, problem }) => {
      const { resend } = await newClient(strict);

      const { error } = await resend.webhooks.create({ endpoint, events: [...BOTH] });
      expect(error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      const message = (error as { message: string }).message;
      expect(message.startsWith('`endpoint` ')).toBe(true);
      if (typeof problem === 'string') expect(message).toBe(`\`endpoint\` ${problem}`);
      else expect(message.slice('`endpoint` '.length)).toMatch(problem);
      expect(dataOf(await resend.webhooks.list()).data).toEqual([]);
    },
  );

  it('when an existing webhook is moved to a private endpoint, then the update is refused and it keeps its endpoint', async () => {
    const { resend } = await newClient(strict);
    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://93.184.215.14/hooks', events: [...BOTH] }));

    expect((await resend.webhooks.update(id, { endpoint: 'https://192.168.1.10/hooks' })).error).toEqual(
      invalid('`endpoint` must not point at a private, loopback, link-local or reserved address (192.168.1.10).'),
    );
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://93.184.215.14/hooks');
  });

  it('when the endpoint is https:// on a public address, then it is accepted', async () => {
    const { resend } = await newClient(strict);

    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://93.184.215.14/hooks', events: [...BOTH] }));
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://93.184.215.14/hooks');
  });
});

describe('the event log through the SDK', () => {
  /** A new account with one webhook for both change types. */
  async function subscribed(): Promise<{ resend: Resend; accountId: string; webhookId: string }> {
    const { resend, accountId } = await newClient();
    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: [...BOTH] }));
    return { resend, accountId, webhookId: id };
  }

  /** Adds an address through the SDK, and lets the dispatcher turn the change into deliveries. */
  async function addAndDispatch(resend: Resend, email = uniqueEmail()): Promise<{ email: string; id: string }> {
    const { id } = dataOf(await resend.suppressions.add({ email }));
    await dispatchChanges(app.database.db, 100);
    return { email, id };
  }

  /** The event log's ids, newest first. */
  async function eventIds(resend: Resend, webhookId: string): Promise<string[]> {
    return dataOf(await resend.webhooks.events.list({ webhookId })).data.map((event) => event.id);
  }

  beforeEach(() => {
    queued.length = 0;
    queueFails = false;
  });

  it('when a subscribed change is dispatched, then the log lists it pending, and get shows its payload as an object', async () => {
    const { resend, webhookId } = await subscribed();
    const added = await addAndDispatch(resend);

    const log = dataOf(await resend.webhooks.events.list({ webhookId }));
    expect(log).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          id: expect.stringMatching(EVENT_ID),
          type: 'suppression.added',
          created_at: expect.stringMatching(ISO_MS),
          status: 'pending',
        },
      ],
    });
    const entry = log.data[0]!;

    const event = dataOf(await resend.webhooks.events.get({ webhookId, eventId: entry.id }));
    expect(event).toEqual({
      object: 'webhook_event',
      ...entry,
      next_attempt_at: expect.stringMatching(ISO_MS),
      payload: {
        type: 'suppression.added',
        created_at: entry.created_at,
        data: {
          object: 'suppression',
          id: added.id,
          email: added.email,
          origin: 'manual',
          source_id: null,
          created_at: expect.stringMatching(ISO_MS),
        },
      },
    });
  });

  it('when an entry is added and removed, then the log lists both changes, newest first, and pages with limit, after and before', async () => {
    const { resend, webhookId } = await subscribed();
    const first = await addAndDispatch(resend);
    await addAndDispatch(resend);
    dataOf(await resend.suppressions.remove(first.id));
    await dispatchChanges(app.database.db, 100);

    const log = dataOf(await resend.webhooks.events.list({ webhookId }));
    expect(log.data.map((event) => event.type)).toEqual([
      'suppression.removed',
      'suppression.added',
      'suppression.added',
    ]);
    const newestFirst = log.data.map((event) => event.id);

    const page = dataOf(await resend.webhooks.events.list({ webhookId, limit: 2 }));
    expect({ ids: page.data.map((event) => event.id), has_more: page.has_more }).toEqual({
      ids: newestFirst.slice(0, 2),
      has_more: true,
    });
    const next = dataOf(await resend.webhooks.events.list({ webhookId, limit: 2, after: newestFirst[1] }));
    expect({ ids: next.data.map((event) => event.id), has_more: next.has_more }).toEqual({
      ids: newestFirst.slice(2),
      has_more: false,
    });
    const backwards = { webhookId, limit: 1, before: newestFirst[2] };
    const back = dataOf(await resend.webhooks.events.list(backwards));
    expect({ ids: back.data.map((event) => event.id), has_more: back.has_more }).toEqual({
      ids: [newestFirst[1]],
      has_more: true,
    });
  });

  it('when a cursor is not an event of this webhook, or not an event id at all, then the SDK reports a 422 naming it', async () => {
    const { resend, webhookId } = await subscribed();
    const other = await subscribed();
    await addAndDispatch(other.resend);
    const [othersEvent] = await eventIds(other.resend, other.webhookId);

    expect((await resend.webhooks.events.list({ webhookId, after: othersEvent })).error).toEqual(
      invalid('`after` is not an event of this webhook.'),
    );
    const backwards = { webhookId, before: `msg_${randomUUID().replaceAll('-', '')}` };
    expect((await resend.webhooks.events.list(backwards)).error).toEqual(
      invalid('`before` is not an event of this webhook.'),
    );
    expect((await resend.webhooks.events.list({ webhookId, after: newId() })).error).toEqual(
      invalid('`after` must be an event id (`msg_` and 32 hex digits).'),
    );
  });

  it('when a change is of a type the webhook does not subscribe to, then its log stays empty', async () => {
    const { resend } = await newClient();
    const { id: webhookId } = dataOf(
      await resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: ['suppression.removed'] }),
    );
    await addAndDispatch(resend);

    expect(await eventIds(resend, webhookId)).toEqual([]);
  });

  it('when attempts were made, then attempts.list shows them newest first and the event is attempting', async () => {
    const { resend, webhookId } = await subscribed();
    await addAndDispatch(resend);
    const [eventId] = await eventIds(resend, webhookId);
    const sentAt = new Date('2026-03-14T10:05:47.498Z');
    const retryAt = new Date('2026-03-14T10:10:47.498Z');
    for (const [attempt, httpStatusCode] of [503, 500].entries()) {
      const recorded = await recordAttempt(app.database.db, {
        deliveryId: eventId!,
        attempt,
        httpStatusCode,
        response: `upstream answered ${httpStatusCode}`,
        sentAt: new Date(sentAt.getTime() + attempt * 1000),
        durationMs: 120,
        status: 'attempting',
        nextAttemptAt: retryAt,
      });
      expect(recorded).toBe(true);
    }

    const attempts = dataOf(await resend.webhooks.events.attempts.list({ webhookId, eventId: eventId! }));
    expect(attempts).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          id: expect.stringMatching(UUID_V7),
          http_status_code: 500,
          response: 'upstream answered 500',
          sent_at: '2026-03-14T10:05:48.498Z',
        },
        {
          id: expect.stringMatching(UUID_V7),
          http_status_code: 503,
          response: 'upstream answered 503',
          sent_at: '2026-03-14T10:05:47.498Z',
        },
      ],
    });
    const [newest, oldest] = attempts.data.map((attempt) => attempt.id);
    const page = dataOf(await resend.webhooks.events.attempts.list({ webhookId, eventId: eventId!, limit: 1 }));
    expect({ ids: page.data.map((attempt) => attempt.id), has_more: page.has_more }).toEqual({
      ids: [newest],
      has_more: true,
    });
    const next = dataOf(
      await resend.webhooks.events.attempts.list({ webhookId, eventId: eventId!, limit: 1, after: newest }),
    );
    expect({ ids: next.data.map((attempt) => attempt.id), has_more: next.has_more }).toEqual({
      ids: [oldest],
      has_more: false,
    });

    expect(dataOf(await resend.webhooks.events.get({ webhookId, eventId: eventId! }))).toMatchObject({
      status: 'attempting',
      next_attempt_at: retryAt.toISOString(),
    });
  });

  it('when an event is replayed, then it is pending again with a new round of retries, and the queue is handed that attempt', async () => {
    const { resend, webhookId } = await subscribed();
    await addAndDispatch(resend);
    const [eventId] = await eventIds(resend, webhookId);
    await recordAttempt(app.database.db, {
      deliveryId: eventId!,
      attempt: 0,
      httpStatusCode: 0,
      response: 'connect ECONNREFUSED 127.0.0.1:9',
      sentAt: new Date(),
      durationMs: 3,
      status: 'failed',
      nextAttemptAt: null,
    });
    expect(dataOf(await resend.webhooks.events.get({ webhookId, eventId: eventId! })).status).toBe('failed');

    expect(dataOf(await resend.webhooks.events.replay({ webhookId, eventId: eventId! }))).toEqual({
      object: 'webhook_event',
      id: eventId,
    });

    expect(queued).toEqual([{ deliveryId: eventId, attempt: 1, roundStart: 1 }]);
    expect(dataOf(await resend.webhooks.events.get({ webhookId, eventId: eventId! }))).toMatchObject({
      status: 'pending',
      next_attempt_at: expect.stringMatching(ISO_MS),
    });
  });

  it('when the queue cannot take a replay, then the replay still answers 200 and the event is pending for the sweeper', async () => {
    const { resend, webhookId } = await subscribed();
    await addAndDispatch(resend);
    const [eventId] = await eventIds(resend, webhookId);
    queueFails = true;

    expect(dataOf(await resend.webhooks.events.replay({ webhookId, eventId: eventId! }))).toEqual({
      object: 'webhook_event',
      id: eventId,
    });
    expect(queued).toEqual([]);
    expect(dataOf(await resend.webhooks.events.get({ webhookId, eventId: eventId! })).status).toBe('pending');
  });

  it('when an event is unknown, of another webhook, or not an event id, then get, replay and attempts are 404', async () => {
    const { resend, webhookId } = await subscribed();
    const other = await subscribed();
    await addAndDispatch(other.resend);
    const [othersEvent] = await eventIds(other.resend, other.webhookId);

    const gone = notFound('Webhook event not found.');
    for (const eventId of [`msg_${randomUUID().replaceAll('-', '')}`, othersEvent!, 'not-an-event']) {
      expect((await resend.webhooks.events.get({ webhookId, eventId })).error).toEqual(gone);
      expect((await resend.webhooks.events.replay({ webhookId, eventId })).error).toEqual(gone);
      expect((await resend.webhooks.events.attempts.list({ webhookId, eventId })).error).toEqual(gone);
    }
    expect(queued).toEqual([]);
  });

  it("when another account names a webhook's event, then every event call is 404 for the webhook", async () => {
    const owner = await subscribed();
    await addAndDispatch(owner.resend);
    const [eventId] = await eventIds(owner.resend, owner.webhookId);
    const { resend: stranger } = await newClient();

    const gone = notFound('Webhook not found.');
    const target = { webhookId: owner.webhookId, eventId: eventId! };
    expect((await stranger.webhooks.events.list({ webhookId: owner.webhookId })).error).toEqual(gone);
    expect((await stranger.webhooks.events.get(target)).error).toEqual(gone);
    expect((await stranger.webhooks.events.replay(target)).error).toEqual(gone);
    expect((await stranger.webhooks.events.attempts.list(target)).error).toEqual(gone);
    expect(queued).toEqual([]);
  });

  it('when a webhook is removed, then its event log goes with it', async () => {
    const { resend, webhookId } = await subscribed();
    await addAndDispatch(resend);
    const [eventId] = await eventIds(resend, webhookId);

    dataOf(await resend.webhooks.remove(webhookId));

    const { rows } = await app.database.db.query({
      text: 'SELECT id FROM webhook_deliveries WHERE id = $1',
      values: [eventId],
    });
    expect(rows).toEqual([]);
  });
});
