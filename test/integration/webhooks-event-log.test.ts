import { randomUUID } from 'node:crypto';
import type { Resend } from 'resend';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';
import { newId } from '../../src/domain/ids.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import { BOTH, dataOf, EVENT_ID, invalid, newSdkClient, notFound } from '../support/webhooks-sdk.js';

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

/** Resend's own SDK, pointed at the file's app, for a brand-new account. */
function newClient(): Promise<{ resend: Resend; accountId: string; token: string }> {
  return newSdkClient(app.database.db, app.server.url);
}

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

          scope: null,
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
    // Sent a minute ago: an attempt is stored in the partition of the month it was sent in.
    const sentAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000 + 498);
    const retryAt = new Date(sentAt.getTime() + 300_000);
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
          sent_at: new Date(sentAt.getTime() + 1000).toISOString(),
        },
        {
          id: expect.stringMatching(UUID_V7),
          http_status_code: 503,
          response: 'upstream answered 503',
          sent_at: sentAt.toISOString(),
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
