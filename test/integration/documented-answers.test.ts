import { EXAMPLE_DSN } from '../../api/messages/example-message.js';
import express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi-document.js';
import { listen } from '../../api/server.js';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { consoleRequest, signIn } from '../support/console-client.js';
import { checkingAnswers, contractChecker, expectAnswersAsDocumented } from '../support/contract-check.js';
import { uniqueEmail } from '../support/emails.js';
import { fixture, suppression, type CreatedFeed } from '../support/feed-contract.js';
import { useFeedApp } from '../support/feed-app.js';
import { basicAuth } from '../support/feed-signers.js';

/**
 * One request for every successful answer the OpenAPI document lists, each answer checked against
 * its documented schema. The test app checks every other test's answers the same way; this table
 * makes sure that each documented answer is met at least once.
 */

const app = useFeedApp({
  rateLimitPerSecond: 10_000,
  webhooks: { allowPrivateEndpoints: true, queue: () => Promise.resolve() },
  env: { BOUNCE_DOMAINS: 'bounces.example.com' },
});
const checker = contractChecker(openApiDocument());

interface Answer {
  /** The path the request was sent to. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

/** What the requests of the table work on, made once for the file. */
interface World {
  url: string;
  token: string;
  /** An entry of the list, added by hand. */
  entryId: string;
  /** An address a Postmark bounce put on the list, with its audit record. */
  bounced: string;
  feedPath: string;
  feedAuthorization: string;
  webhookId: string;
  eventId: string;
  importId: string;
  reclassificationId: string;
}

let world: World | undefined;
const the = (): World => {
  if (!world) throw new Error('the world is made in beforeAll');
  return world;
};

async function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; token?: string | null } = {},
): Promise<Answer> {
  const { url, token } = the();
  const headers: Record<string, string> = { ...options.headers };
  const bearer = options.token === undefined ? token : options.token;
  if (bearer !== null) headers['authorization'] = `Bearer ${bearer}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${url}${path}`, { method, headers, body: options.body });
  const text = await response.text();
  return { path, status: response.status, contentType: response.headers.get('content-type'), text };
}

const json = (method: string, path: string, body?: unknown) =>
  send(method, path, body === undefined ? {} : { body: JSON.stringify(body) });

/** A request whose answer the document lists as `status`, and the situation it is made in. */
interface Entry {
  method: string;
  path: string;
  status: number;
  when: string;
  request: () => Promise<Answer>;
}

/** An entry of the table, from `METHOD path status`. */
function row(answer: string, when: string, request: () => Promise<Answer>): Entry {
  const [method = '', path = '', status = ''] = answer.split(' ');
  return { method, path, status: Number(status), when, request };
}

const webhookPath = () => `/webhooks/${the().webhookId}`;
const eventPath = () => `${webhookPath()}/events/${the().eventId}`;

async function newWebhook(): Promise<string> {
  const answer = await json('POST', '/webhooks', {
    endpoint: 'http://127.0.0.1:9/hooks',
    events: ['suppression.added'],
  });
  return (JSON.parse(answer.text) as { id: string }).id;
}

async function newSession(): Promise<{ cookie: string; csrfToken: string }> {
  return signIn(the().url, the().token);
}

async function consoleAnswer(
  method: string,
  path: string,
  options: Parameters<typeof consoleRequest>[4] & { cookie: string | null },
) {
  const response = await consoleRequest(the().url, options.cookie, method, path, options);
  const text =
    response.body === undefined
      ? ''
      : typeof response.body === 'string'
        ? response.body
        : JSON.stringify(response.body);
  return { path, status: response.status, contentType: response.headers.get('content-type'), text };
}

/** A new link of the account, for an address of its own. */
async function unsubscribeLink(): Promise<string> {
  const answer = await json('POST', '/unsubscribe-links', { emails: [uniqueEmail()] });
  return (JSON.parse(answer.text) as { data: { url: string }[] }).data[0]!.url;
}

const table: Entry[] = [
  row('GET /suppressions 200', 'the list is asked for', () => json('GET', '/suppressions?limit=5')),
  row('POST /suppressions 201', 'an address is added', () => json('POST', '/suppressions', { email: uniqueEmail() })),
  row('GET /suppressions/export 200', 'the list is exported', () => send('GET', '/suppressions/export?format=csv')),
  row('GET /suppressions/{suppression} 200', 'an entry is looked up by id', () =>
    json('GET', `/suppressions/${the().entryId}`),
  ),
  row('DELETE /suppressions/{suppression} 200', 'a listed address is removed', async () => {
    const email = uniqueEmail();
    await json('POST', '/suppressions', { email });
    return json('DELETE', `/suppressions/${encodeURIComponent(email)}`);
  }),
  row('GET /suppressions/{suppression}/events 200', 'the history of a bounced address is read', () =>
    json('GET', `/suppressions/${encodeURIComponent(the().bounced)}/events`),
  ),
  row('POST /suppressions/check 200', 'a listed address, a new one and a non-address are checked', () =>
    json('POST', '/suppressions/check', { emails: [the().bounced, uniqueEmail(), 'not-an-address'] }),
  ),
  row('POST /suppressions/batch/add 201', 'two addresses are added at once', () =>
    json('POST', '/suppressions/batch/add', { emails: [uniqueEmail(), uniqueEmail()] }),
  ),
  row('POST /suppressions/batch/remove 200', 'a listed address and an unknown one are removed at once', async () => {
    const email = uniqueEmail();
    await json('POST', '/suppressions', { email });
    return json('POST', '/suppressions/batch/remove', { emails: [email, uniqueEmail()] });
  }),
  row('POST /suppressions/imports 202', 'a CSV list with a bad line is imported', () =>
    send('POST', '/suppressions/imports', {
      body: `email\n${uniqueEmail()}\nnot-an-address\n`,
      headers: { 'content-type': 'text/csv' },
    }),
  ),
  row('GET /suppressions/imports/{import} 200', 'an import is followed', () =>
    json('GET', `/suppressions/imports/${the().importId}`),
  ),
  row('GET /webhooks 200', 'the webhooks are listed', () => json('GET', '/webhooks')),
  row('POST /webhooks 201', 'a webhook is created', () =>
    json('POST', '/webhooks', { endpoint: 'http://127.0.0.1:9/new', events: ['suppression.removed'] }),
  ),
  row('GET /webhooks/{webhook_id} 200', 'a webhook is read', () => json('GET', webhookPath())),
  row('PATCH /webhooks/{webhook_id} 200', 'a webhook is given another event type', () =>
    json('PATCH', webhookPath(), { events: ['suppression.added', 'suppression.removed'] }),
  ),
  row('DELETE /webhooks/{webhook_id} 200', 'a webhook is removed', async () =>
    json('DELETE', `/webhooks/${await newWebhook()}`),
  ),
  row('POST /webhooks/{webhook_id}/signing-secret/rotate 200', 'a webhook’s secret is rotated', async () =>
    json('POST', `/webhooks/${await newWebhook()}/signing-secret/rotate`),
  ),
  row('GET /webhooks/{webhook_id}/events 200', 'a webhook’s event log is listed', () =>
    json('GET', `${webhookPath()}/events`),
  ),
  row('GET /webhooks/{webhook_id}/events/{event_id} 200', 'an event with an attempt is read', () =>
    json('GET', eventPath()),
  ),
  row('POST /webhooks/{webhook_id}/events/{event_id}/replay 200', 'an event is replayed', () =>
    json('POST', `${eventPath()}/replay`),
  ),
  row('GET /webhooks/{webhook_id}/events/{event_id}/attempts 200', 'an event’s attempts are listed', () =>
    json('GET', `${eventPath()}/attempts`),
  ),
  row('GET /settings/suppressions 200', 'the settings are read', () => json('GET', '/settings/suppressions')),
  row('PATCH /settings/suppressions 200', 'a threshold and an expiry are set', () =>
    json('PATCH', '/settings/suppressions', { soft_bounce_threshold: 3, expire_after_days: { complaint: 30 } }),
  ),
  row('POST /bounces/classify 200', 'a blocked and an unknown-user bounce are classified', () =>
    json('POST', '/bounces/classify', {
      bounces: [
        { status: '5.7.1', diagnostic: '550 5.7.1 blocked using zen.spamhaus.org', provider: 'ses' },
        { status: '5.1.1', reply_code: 550, type: 'permanent' },
      ],
    }),
  ),
  row('GET /bounces/summary 200', 'the summary of the last day is read', () => json('GET', '/bounces/summary')),
  row('POST /bounces/reclassifications 202', 'a dry run is asked for', () =>
    json('POST', '/bounces/reclassifications', { dry_run: true }),
  ),
  row('GET /bounces/reclassifications/{id} 200', 'a reclassification is followed', () =>
    json('GET', `/bounces/reclassifications/${the().reclassificationId}`),
  ),
  row('GET /bounces/reclassifications/{id}/entries 200', 'a reclassification’s entries are reviewed', () =>
    json('GET', `/bounces/reclassifications/${the().reclassificationId}/entries?limit=10`),
  ),
  row('POST /events 202', 'a mail system posts a bounce and a complaint', () =>
    json('POST', '/events', {
      events: [
        {
          event_id: `mta-${uniqueEmail()}`,
          type: 'bounce',
          email: uniqueEmail(),
          source_id: '5d1e9f0c-6a4b-4f7e-9c3d-2b8a1e0f4c6d',
          occurred_at: '2026-11-21T20:30:06.685Z',
          bounce: { type: 'permanent', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
        },
        {
          event_id: `fbl-${uniqueEmail()}`,
          type: 'complaint',
          email: uniqueEmail(),
          source_id: '0b8f3c7e-2d4a-4e61-9a5b-7c1d2e3f4a5b',
          occurred_at: '2026-11-21T20:31:00Z',
          complaint: { feedback_type: 'abuse' },
        },
      ],
    }),
  ),
  row('GET /events/schema.json 200', 'the job format’s JSON Schema is fetched', () =>
    send('GET', '/events/schema.json', { token: null }),
  ),
  row('GET /allowlist 200', 'the allowlist is read', () => json('GET', '/allowlist')),
  row('POST /allowlist 201', 'a domain is allowlisted', () =>
    json('POST', '/allowlist', {
      domain: `${uniqueEmail()
        .split('@')[0]!
        .replace(/[^a-z0-9]/g, '')}.example`,
      note: 'QA',
    }),
  ),
  row('DELETE /allowlist/{rule} 200', 'a rule is removed', async () => {
    const added = await json('POST', '/allowlist', { email: uniqueEmail() });
    return json('DELETE', `/allowlist/${(JSON.parse(added.text) as { id: string }).id}`);
  }),
  row('POST /unsubscribe-links 200', 'the headers of two addresses are asked for', () =>
    json('POST', '/unsubscribe-links', { emails: [uniqueEmail(), 'not-an-address'], scope: 'newsletter' }),
  ),
  row('POST /unsubscribe-links/secret/rotate 200', 'the unsubscribe secret is rotated', () =>
    json('POST', '/unsubscribe-links/secret/rotate', {}),
  ),
  row('GET /unsubscribe/{token} 200', 'a recipient opens a link', async () =>
    send('GET', new URL(await unsubscribeLink()).pathname, { token: null }),
  ),
  row('POST /unsubscribe/{token} 200', 'a mailbox provider posts the one click', async () =>
    send('POST', new URL(await unsubscribeLink()).pathname, {
      token: null,
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  ),
  row('POST /messages 202', 'a bounce message is handed in', () =>
    send('POST', '/messages', { body: EXAMPLE_DSN, headers: { 'content-type': 'message/rfc822' } }),
  ),
  row('POST /messages/parse 200', 'a bounce message is read without a record', () =>
    send('POST', '/messages/parse', { body: EXAMPLE_DSN, headers: { 'content-type': 'message/rfc822' } }),
  ),
  row('POST /return-paths 200', 'the return paths of two recipients are asked for', () =>
    json('POST', '/return-paths', { recipients: [uniqueEmail(), uniqueEmail()], message_id: '<a1@mail.example.com>' }),
  ),
  row('GET /return-paths/secret 200', 'the return-path secret is fetched', () => json('GET', '/return-paths/secret')),
  row('POST /return-paths/secret/rotate 200', 'the return-path secret is rotated', () =>
    json('POST', '/return-paths/secret/rotate'),
  ),
  row('POST /console/session 201', 'a full-access key signs in to the console', () =>
    consoleAnswer('POST', '/console/session', { cookie: null, body: { api_key: the().token } }),
  ),
  row('GET /console/session 200', 'the console reads its session', async () =>
    consoleAnswer('GET', '/console/session', { cookie: (await newSession()).cookie }),
  ),
  row('DELETE /console/session 204', 'the console signs out', async () => {
    const session = await newSession();
    return consoleAnswer('DELETE', '/console/session', { cookie: session.cookie, csrfToken: session.csrfToken });
  }),
  row('POST /feeds/{feed_id} 200', 'Postmark posts a soft bounce', () =>
    send('POST', the().feedPath, {
      token: null,
      body: fixture('postmark', 'bounce-soft.json'),
      headers: { authorization: the().feedAuthorization },
    }),
  ),
  row('GET /health 200', 'the process is up', () => send('GET', '/health', { token: null })),
  row('GET /ready 200', 'PostgreSQL and Redis answer', () => send('GET', '/ready', { token: null })),
  row('GET /metrics 200', 'no metrics token is set', () => send('GET', '/metrics', { token: null })),
  row('GET /openapi.json 200', 'the document is fetched', () => send('GET', '/openapi.json', { token: null })),
  row('GET /docs 200', 'the reference is opened', () => send('GET', '/docs', { token: null })),
];

const key = ({ method, path, status }: { method: string; path: string; status: number }) =>
  `${method} ${path} ${status}`;

beforeAll(async () => {
  const created: CreatedFeed = await app.newFeed('postmark');
  const { username, password } = created.shown as { username: string; password: string };
  const { account } = created;
  const api = account.api;
  world = {
    url: app.server.url,
    token: account.token,
    entryId: '',
    bounced: 'john@example.com',
    feedPath: `/feeds/${created.feed.id}`,
    feedAuthorization: basicAuth(username, password),
    webhookId: '',
    eventId: '',
    importId: '',
    reclassificationId: '',
  };
  world.webhookId = await newWebhook();

  const bounce = await app.send(created.feed, fixture('postmark', 'bounce-hard-user-unknown.json'), {
    authorization: world.feedAuthorization,
  });
  expect(bounce.status).toBe(200);
  await suppression(created, world.bounced);

  world.entryId = (await api.post('/suppressions', { email: uniqueEmail() })).body.id;
  const [due] = await dispatchChanges(app.database.db, 100);
  expect(due).toBeDefined();
  world.eventId = (await api.get(`${webhookPath()}/events`)).body.data[0].id;
  await recordAttempt(app.database.db, {
    deliveryId: world.eventId,
    attempt: 0,
    httpStatusCode: 503,
    response: 'upstream answered 503',
    sentAt: new Date(),
    durationMs: 80,
    status: 'attempting',
    nextAttemptAt: new Date(Date.now() + 60_000),
  });

  const imported = await api.request('POST', '/suppressions/imports', {
    rawBody: `email\n${uniqueEmail()}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  world.importId = imported.body.id;
  world.reclassificationId = (await api.post('/bounces/reclassifications', { dry_run: true })).body.id;
});

describe('the successful answers of the OpenAPI document', () => {
  it('when the document is read, then each of its 2xx answers has a request in the table, and the table nothing else', () => {
    const documented = checker.documented.map(key).sort();

    expect(table.map(key).sort()).toEqual(documented);
  });

  it('when an answer lacks a documented field or carries another, then the checker names the operation and the field', () => {
    const entry = {
      object: 'suppression',
      id: '019cebab-8995-77f7-9262-77a618303564',
      email: 'jane@example.com',
      origin: 'manual',
      source_id: null,
      scope: null,
      created_at: '2026-03-14T09:26:53.589Z',
    };
    const answer = {
      method: 'GET',
      path: `/console/api/suppressions/${entry.id}`,
      status: 200,
      contentType: 'application/json',
    };
    const withoutTime = Object.fromEntries(Object.entries(entry).filter(([name]) => name !== 'created_at'));

    expect(checker.problemOf({ ...answer, body: entry })).toBeNull();
    expect(checker.problemOf({ ...answer, body: withoutTime })).toMatch(/\/suppressions\/\{suppression\}.*created_at/);
    expect(checker.problemOf({ ...answer, body: { ...entry, extra: 1 } })).toMatch(/additional properties/);
    expect(checker.problemOf({ ...answer, status: 201, body: entry })).toMatch(/201, which the document does not list/);
  });

  it('when a test app answers what the document does not allow, then the check after the test fails with it', async () => {
    const wrong = express();
    wrong.get('/health', (_req, res) => {
      res.json({ status: 'fine' });
    });
    const server = await listen(checkingAnswers(wrong), '127.0.0.1', 0);
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }

    expect(expectAnswersAsDocumented).toThrow(/GET \/health \(\/health\) answered 200 with \{"status":"fine"\}/);
    expect(expectAnswersAsDocumented).not.toThrow();
  });

  for (const entry of table) {
    it(`when ${entry.when}, then ${entry.method} ${entry.path} answers ${entry.status} as the document says`, async () => {
      const answer = await entry.request();

      expect(answer.status, answer.text).toBe(entry.status);
      const path = answer.path.split('?')[0]!;
      expect(checker.templateOf(entry.method, path)).toBe(entry.path);
      const documented = checker.documented.find((candidate) => key(candidate) === key(entry));
      expect(documented, key(entry)).toBeDefined();
      if (documented!.mediaTypes.length === 0) {
        expect(answer.text).toBe('');
        return;
      }
      const mediaType = (answer.contentType ?? '').split(';')[0]!.trim();
      expect(documented!.mediaTypes).toContain(mediaType);
      if (mediaType !== 'application/json') return;
      const body: unknown = JSON.parse(answer.text);
      const problem = checker.problemOf({ ...answer, method: entry.method, path, body });
      expect(problem).toBeNull();
    });
  }
});
