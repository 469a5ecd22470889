import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchProducer, type BatchProducer } from '../../src/batches/batch-producer.js';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import { createLogger } from '../../src/logger.js';
import { queueDeliveries, WEBHOOK_DELIVERIES_QUEUE } from '../../src/webhooks/delivery-queue.js';
import { PRIVATE_RESPONSE_NOTE } from '../../src/webhooks/post-delivery.js';
import { startBatchWorker, type BatchWorker } from '../../workers/batch-worker.js';
import { startEventWorker, type EventWorker } from '../../workers/event-worker.js';
import { startWebhookWorker, type WebhookWorker } from '../../workers/webhook-worker.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { FAST_RETRIES } from '../support/fast-retries.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { createTestQueue, eventually, settled, type TestQueue } from '../support/test-queue.js';
import { useTestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { queueConfig } from '../support/test-config.js';

// Everything a deployment runs, on one database: the API, the event and batch workers, and the
// webhook worker; the customer's side is Resend's SDK and a receiver that verifies with it.
let deliveries: TestQueue;
const app = useTestApp({
  queues: true,
  webhooks: { allowPrivateEndpoints: true, queue: (due) => queueDeliveries(deliveries.queue, due) },
});
const running: { events?: EventWorker; batches?: BatchWorker; webhooks?: WebhookWorker } = {};
let events: EventProducer;
let batches: BatchProducer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  deliveries = await createTestQueue(WEBHOOK_DELIVERIES_QUEUE);
  const logger = createLogger('silent');
  const db = app.database.db;
  running.events = startEventWorker(queueConfig(app.events.prefix, { WORKER_CONCURRENCY: '20' }), {
    db,
    logger,
    connection: app.events.connection,
  });
  running.batches = startBatchWorker(queueConfig(app.batches.prefix), {
    db,
    logger,
    connection: app.batches.connection,
  });
  running.webhooks = startWebhookWorker(
    queueConfig(deliveries.prefix, { WEBHOOK_DELIVERY_CONCURRENCY: '10', WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' }),
    { db, logger, connection: deliveries.connection },
    { retryDelaysMs: FAST_RETRIES, dispatch: { pollMs: 20 } },
  );
  events = createEventProducer({ connection: app.events.redisUrl, prefix: app.events.prefix });
  batches = createBatchProducer({ connection: app.batches.redisUrl, prefix: app.batches.prefix });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all([running.events?.close(), running.batches?.close(), running.webhooks?.close()]);
  await Promise.all([events?.close(), batches?.close(), receiver?.close()]);
  await deliveries?.cleanup();
});

function dataOf<T>(response: { data: T | null; error: unknown }): T {
  expect(response.error).toBeNull();
  return response.data as T;
}

interface Change {
  type: string;
  email: string;
  id: string;
}

function changesReceived(): Change[] {
  return receiver.accepted().map((delivery) => {
    expect(delivery.verified.ok).toBe(true);
    const payload = (delivery.verified as { payload: { type: string; data: { email: string; id: string } } }).payload;
    return { type: payload.type, email: payload.data.email, id: payload.data.id };
  });
}

describe('a customer following the list with Resend’s SDK', () => {
  it(
    'when entries are added and removed through the API, the events queue and the batches queue, while the receiver fails for a while, then it gets each change once, verified, and the event log agrees',
    { timeout: 60_000 },
    async () => {
      const { accountId, token } = await newAccount(app.database.db);
      const resend = new Resend(token, { baseUrl: app.server.url });
      const webhook = dataOf(
        await resend.webhooks.create({ endpoint: receiver.url, events: ['suppression.added', 'suppression.removed'] }),
      );
      receiver.secret = webhook.signing_secret;
      // The first five requests fail; their deliveries are retried.
      receiver.answer = (_delivery, index) => (index < 5 ? 503 : 200);

      const [manual, removedLater] = uniqueEmails(2);
      const added = dataOf(await resend.suppressions.add({ email: manual! }));
      const addedLater = dataOf(await resend.suppressions.add({ email: removedLater! }));
      dataOf(await resend.suppressions.remove(removedLater!));
      const bounced = uniqueEmail();
      const complained = uniqueEmail();
      await events.publishMany([bounceEvent(accountId, bounced), complaintEvent(accountId, complained)]);
      const imported = uniqueEmails(3);
      // Batch jobs run concurrently: the removal is published once the addition is done.
      await settled(app.batches.queue, await batches.add({ account_id: accountId, emails: imported }));
      await batches.remove({ account_id: accountId, emails: [imported[0]!] });

      await eventually(() => Promise.resolve(receiver.accepted().length >= 9), 30_000, 'nine changes');
      await eventually(
        async () =>
          dataOf(await resend.webhooks.events.list({ webhookId: webhook.id, limit: 100 })).data.every(
            (event) => event.status === 'success',
          ),
        15_000,
        'every event recorded as delivered',
      );
      const list = await app.database.db.query<{ id: string; email: string }>({
        text: 'SELECT id, email FROM suppressions WHERE account_id = $1',
        values: [accountId],
      });
      const received = changesReceived();
      expect(received).toHaveLength(9);
      expect(
        received
          .filter((change) => change.type === 'suppression.added')
          .map((change) => change.email)
          .sort(),
      ).toEqual([manual, removedLater, bounced, complained, ...imported].sort());
      expect(
        received
          .filter((change) => change.type === 'suppression.removed')
          .map((change) => change.email)
          .sort(),
      ).toEqual([removedLater, imported[0]].sort());
      // What is still added and not removed is exactly the list.
      const removedIds = new Set(
        received.filter((change) => change.type === 'suppression.removed').map((change) => change.id),
      );
      expect(
        received
          .filter((change) => change.type === 'suppression.added' && !removedIds.has(change.id))
          .map((change) => change.id)
          .sort(),
      ).toEqual(list.rows.map((row) => row.id).sort());
      expect(received.find((change) => change.email === manual)?.id).toBe(added.id);
      expect(
        received.find((change) => change.type === 'suppression.removed' && change.email === removedLater)?.id,
      ).toBe(addedLater.id);

      const log = dataOf(await resend.webhooks.events.list({ webhookId: webhook.id, limit: 100 }));
      expect(log.data).toHaveLength(9);
      expect(log.data.every((event) => event.status === 'success')).toBe(true);
      const retried = receiver.received.find((delivery) => delivery.status === 503)!;
      const eventId = String(retried.headers['webhook-id']);
      const attempts = dataOf(await resend.webhooks.events.attempts.list({ webhookId: webhook.id, eventId }));
      // The receiver is on loopback: its answers are not kept.
      expect(attempts.data[0]).toMatchObject({ http_status_code: 200, response: PRIVATE_RESPONSE_NOTE });
      expect(attempts.data.slice(1).every((attempt) => attempt.http_status_code === 503)).toBe(true);
    },
  );

  it('when an event is replayed, then it arrives again under the same webhook-id', async () => {
    const { token } = await newAccount(app.database.db);
    const resend = new Resend(token, { baseUrl: app.server.url });
    const webhook = dataOf(await resend.webhooks.create({ endpoint: receiver.url, events: ['suppression.added'] }));
    receiver.secret = webhook.signing_secret;
    receiver.answer = () => 200;
    const email = uniqueEmail();
    dataOf(await resend.suppressions.add({ email }));
    const ofThis = () => receiver.received.filter((delivery) => JSON.parse(delivery.body).data.email === email);
    await eventually(() => Promise.resolve(ofThis().length === 1), 15_000, 'the first delivery');
    const eventId = String(ofThis()[0]!.headers['webhook-id']);

    expect(dataOf(await resend.webhooks.events.replay({ webhookId: webhook.id, eventId }))).toEqual({
      object: 'webhook_event',
      id: eventId,
    });
    await eventually(() => Promise.resolve(ofThis().length === 2), 15_000, 'the replay');
    expect(ofThis()[1]!.headers['webhook-id']).toBe(eventId);
    expect(ofThis()[1]!.verified.ok).toBe(true);
  });

  it('when a webhook is disabled through the SDK, then the changes after it are not sent to it', async () => {
    const { token } = await newAccount(app.database.db);
    const resend = new Resend(token, { baseUrl: app.server.url });
    const webhook = dataOf(await resend.webhooks.create({ endpoint: receiver.url, events: ['suppression.added'] }));
    receiver.secret = webhook.signing_secret;
    receiver.answer = () => 200;
    dataOf(await resend.webhooks.update(webhook.id, { status: 'disabled' }));
    const email = uniqueEmail();
    dataOf(await resend.suppressions.add({ email }));

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((delivery) => delivery.body.includes(email))).toHaveLength(0);
    expect(dataOf(await resend.webhooks.events.list({ webhookId: webhook.id })).data).toHaveLength(0);
  });
});
