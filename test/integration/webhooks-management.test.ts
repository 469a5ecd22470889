import { randomUUID } from 'node:crypto';
import { Resend } from 'resend';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { newAccount } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { useTestApp } from '../support/test-app.js';
import { BOTH, dataOf, invalid, newSdkClient, notFound, SECRET } from '../support/webhooks-sdk.js';

const app = useTestApp({
  redis: 'live',
  rateLimitPerSecond: 10_000,
  webhooks: { allowPrivateEndpoints: true },
});

/** Resend's own SDK, pointed at the file's app, for a brand-new account. */
function newClient(): Promise<{ resend: Resend; accountId: string; token: string }> {
  return newSdkClient(app.database.db, app.server.url);
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
});
