import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { PRIVATE_RESPONSE_NOTE } from '../../src/webhooks/post-delivery.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import { removeWebhook, rotateSigningSecret, updateWebhook } from '../../src/webhooks/webhook-repository.js';
import { newId } from '../../src/domain/ids.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { ISO_MS } from '../support/formats.js';
import { sleep } from '../support/sleep.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { eventually } from '../support/test-queue.js';
import { FAST_RETRIES, useWebhookWorker } from '../support/test-webhook-worker.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { startWorkerProcess } from '../support/webhook-worker-process.js';

const hooks = useWebhookWorker();

function addManual(accountId: string, emails: string[]) {
  return addSuppressions(
    hooks.database.db,
    accountId,
    emails.map((email) => ({ id: newId(), email, origin: 'manual' as const, sourceId: null })),
  );
}

/** Waits until the receiver has had `count` requests, or accepted `count` deliveries. */
function receivedCount(receiver: WebhookReceiver, count: number): Promise<void> {
  return eventually(() => Promise.resolve(receiver.received.length >= count), 15_000, `${count} requests`);
}

function acceptedCount(receiver: WebhookReceiver, count: number): Promise<void> {
  return eventually(() => Promise.resolve(receiver.accepted().length >= count), 15_000, `${count} accepted deliveries`);
}

/**
 * Resolves once nothing more can reach a receiver of these accounts: their changes have left the
 * outbox, none of their deliveries waits or is under way, and no delivery job of the file waits, is
 * delayed for a retry, or runs.
 */
async function nothingMoreToDeliver(...accountIds: string[]): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await hooks.database.db.query<{ left: string }>({
        text: `SELECT (SELECT count(*) FROM suppression_changes WHERE account_id = ANY($1::uuid[]))
                    + (SELECT count(*) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                        WHERE w.account_id = ANY($1::uuid[]) AND d.status IN ('pending', 'attempting')) AS left`,
        values: [accountIds],
      });
      const jobs = await hooks.deliveries.queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
      return Number(rows[0]?.left) === 0 && Object.values(jobs).every((count) => count === 0);
    },
    15_000,
    'nothing more to deliver',
  );
}

async function deliveryRows(webhookId: string) {
  const { rows } = await hooks.database.db.query<{ id: string; status: string; attempt_count: number }>({
    text: 'SELECT id, status, attempt_count FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY change_id',
    values: [webhookId],
  });
  return rows;
}

/**
 * The webhook's deliveries once there are `count` and each is delivered or given up: the receiver
 * sees a request before the worker has recorded its answer.
 */
async function settledDeliveries(webhookId: string, count: number) {
  let rows: Awaited<ReturnType<typeof deliveryRows>> = [];
  await eventually(
    async () => {
      rows = await deliveryRows(webhookId);
      return rows.length === count && rows.every((row) => row.status === 'success' || row.status === 'failed');
    },
    15_000,
    `${count} settled deliveries`,
  );
  return rows;
}

async function attemptsOf(deliveryId: string) {
  const { rows } = await hooks.database.db.query<{ http_status_code: number; response: string }>({
    text: 'SELECT http_status_code, response FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id',
    values: [deliveryId],
  });
  return rows;
}

describe('what a delivery carries', () => {
  it('when an address is added, then the receiver gets suppression.added that resend.webhooks.verify and svix both accept', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    const email = uniqueEmail();
    const [added] = await addManual(accountId, [email]);

    await acceptedCount(receiver, 1);
    const [delivery] = receiver.received;
    expect(delivery!.verified).toEqual({
      ok: true,
      payload: {
        type: 'suppression.added',
        created_at: expect.stringMatching(ISO_MS),
        data: {
          object: 'suppression',
          id: added!.id,
          email,
          origin: 'manual',
          source_id: null,

          scope: null,
          created_at: expect.stringMatching(ISO_MS),
        },
      },
    });
    const { headers, body } = delivery!;
    expect(headers['svix-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(headers['webhook-id']).toBe(headers['svix-id']);
    expect(headers['webhook-timestamp']).toBe(headers['svix-timestamp']);
    expect(headers['webhook-signature']).toBe(headers['svix-signature']);
    expect(headers['content-type']).toBe('application/json');
    const svixPayload = new SvixWebhook(webhook.signingSecret).verify(body, {
      'svix-id': String(headers['svix-id']),
      'svix-timestamp': String(headers['svix-timestamp']),
      'svix-signature': String(headers['svix-signature']),
    });
    expect(svixPayload).toEqual(JSON.parse(body));
  });

  it('when an entry is removed, then suppression.removed carries the entry as it was', async () => {
    const { accountId, receiver } = await hooks.subscriber();
    const email = uniqueEmail();
    const [added] = await addManual(accountId, [email]);
    await removeSuppressions(
      hooks.database.db,
      accountId,
      { emails: [email] },
      { keyId: null, force: false, reason: null, actor: { type: 'queue', id: null } },
    );

    await acceptedCount(receiver, 2);
    const payloads = receiver.accepted().map((delivery) => (delivery.verified as { payload: unknown }).payload);
    expect(payloads).toContainEqual(
      expect.objectContaining({
        type: 'suppression.removed',
        data: expect.objectContaining({ id: added!.id, email, origin: 'manual' }),
      }),
    );
  });

  it('when a delivery is verified with a wrong secret, then resend.webhooks.verify refuses it', async () => {
    const { accountId, receiver } = await hooks.subscriber();
    receiver.secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await addManual(accountId, [uniqueEmail()]);

    await receivedCount(receiver, 1);
    expect(receiver.received[0]!.verified.ok).toBe(false);
  });

  it('when the signing secret was rotated, then deliveries verify with the new secret and, for a day, the old one', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    const rotated = await rotateSigningSecret(hooks.database.db, accountId, webhook.id);
    receiver.secret = rotated!.signingSecret;
    await addManual(accountId, [uniqueEmail()]);

    await acceptedCount(receiver, 1);
    const { headers, body } = receiver.received[0]!;
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    const oldSecretPayload = new SvixWebhook(webhook.signingSecret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    expect(oldSecretPayload).toEqual(JSON.parse(body));
  });
});

describe('which changes are announced', () => {
  it('when an address already on the list is added again, then nothing is announced for it', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    const [first, second] = uniqueEmails(2);
    await addManual(accountId, [first!]);
    await acceptedCount(receiver, 1);

    await addManual(accountId, [first!, second!]);
    await acceptedCount(receiver, 2);
    await nothingMoreToDeliver(accountId);

    const emails = receiver.accepted().map((delivery) => JSON.parse(delivery.body).data.email);
    expect(emails).toEqual([first, second]);
    expect(await deliveryRows(webhook.id)).toHaveLength(2);
  });

  it('when bounces and complaints are recorded by the event path, then each new entry is announced once and a repeat is not', async () => {
    const { accountId, receiver } = await hooks.subscriber();
    const [bounced, complained] = uniqueEmails(2);
    const events = [
      bounceEvent(accountId, bounced!),
      complaintEvent(accountId, complained!),
      bounceEvent(accountId, bounced!),
    ];
    await recordEventBatch(hooks.database.db, events.map(parseSuppressionEvent));

    await acceptedCount(receiver, 2);
    await nothingMoreToDeliver(accountId);
    const data = receiver.accepted().map((delivery) => JSON.parse(delivery.body).data);
    expect(data.map((entry: { email: string }) => entry.email).sort()).toEqual([bounced, complained].sort());
    expect(data.find((entry: { email: string }) => entry.email === bounced)).toMatchObject({
      origin: 'bounce',
      source_id: events[0]!.source_id,
    });
  });

  it('when a change is rolled back, then nothing is announced', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    await hooks.database.db
      .withTransaction(async (client) => {
        await addSuppressions(client, accountId, [
          { id: newId(), email: uniqueEmail(), origin: 'manual', sourceId: null },
        ]);
        throw new Error('the caller gives up');
      })
      .catch(() => undefined);
    const committed = uniqueEmail();
    await addManual(accountId, [committed]);

    await acceptedCount(receiver, 1);
    await nothingMoreToDeliver(accountId);
    expect(receiver.received.map((delivery) => JSON.parse(delivery.body).data.email)).toEqual([committed]);
    expect(await deliveryRows(webhook.id)).toHaveLength(1);
  });

  it('when a webhook subscribes only to removals, then additions are not sent to it', async () => {
    const { accountId, receiver } = await hooks.subscriber(['suppression.removed']);
    const email = uniqueEmail();
    await addManual(accountId, [email]);
    await removeSuppressions(
      hooks.database.db,
      accountId,
      { emails: [email] },
      { keyId: null, force: false, reason: null, actor: { type: 'queue', id: null } },
    );

    await acceptedCount(receiver, 1);
    await nothingMoreToDeliver(accountId);
    expect(receiver.received.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['suppression.removed']);
  });

  it('when another account changes its list, then this account’s webhook hears nothing of it', async () => {
    const mine = await hooks.subscriber();
    const theirs = await hooks.subscriber();
    await addManual(theirs.accountId, [uniqueEmail()]);
    await addManual(mine.accountId, [uniqueEmail()]);

    await acceptedCount(mine.receiver, 1);
    await acceptedCount(theirs.receiver, 1);
    await nothingMoreToDeliver(mine.accountId, theirs.accountId);
    expect(mine.receiver.received).toHaveLength(1);
  });
});

describe('retries', () => {
  it('when the receiver fails three times and then recovers, then each change is accepted exactly once under one webhook-id, every attempt recorded without the loopback receiver’s bodies', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = (_delivery, index) => (index < 3 ? 500 : 200);
    const [added] = await addManual(accountId, [uniqueEmail()]);

    await acceptedCount(receiver, 1);
    expect(receiver.received.map((delivery) => delivery.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(receiver.received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(receiver.accepted()[0]!.body).data.id).toBe(added!.id);

    const [row] = await settledDeliveries(webhook.id, 1);
    expect(row).toMatchObject({ status: 'success', attempt_count: 4 });
    expect(await attemptsOf(row!.id)).toEqual([
      { http_status_code: 500, response: PRIVATE_RESPONSE_NOTE },
      { http_status_code: 500, response: PRIVATE_RESPONSE_NOTE },
      { http_status_code: 500, response: PRIVATE_RESPONSE_NOTE },
      { http_status_code: 200, response: PRIVATE_RESPONSE_NOTE },
    ]);
  });

  it('when the receiver never succeeds, then the delivery fails after the last retry of the schedule', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = () => 503;
    await addManual(accountId, [uniqueEmail()]);

    await eventually(async () => (await deliveryRows(webhook.id))[0]?.status === 'failed', 15_000, 'a failed delivery');
    expect(receiver.received).toHaveLength(FAST_RETRIES.length + 1);
  });

  it('when the receiver redirects, then the redirect is not followed and counts as a failure', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = (_delivery, index) => (index === 0 ? 302 : 200);
    await addManual(accountId, [uniqueEmail()]);

    await acceptedCount(receiver, 1);
    const [row] = await settledDeliveries(webhook.id, 1);
    expect((await attemptsOf(row!.id)).map((attempt) => attempt.http_status_code)).toEqual([302, 200]);
  });

  it('when the receiver does not answer in time, then the attempt is recorded as timed out and retried', async () => {
    await hooks.stop();
    hooks.start({ timeoutMs: 300 });
    try {
      const { accountId, webhook, receiver } = await hooks.subscriber();
      receiver.answer = (_delivery, index) => (index === 0 ? 'hang' : 200);
      await addManual(accountId, [uniqueEmail()]);

      await acceptedCount(receiver, 1);
      const [row] = await settledDeliveries(webhook.id, 1);
      expect(await attemptsOf(row!.id)).toEqual([
        { http_status_code: 0, response: 'timed out after 0.3 s' },
        { http_status_code: 200, response: PRIVATE_RESPONSE_NOTE },
      ]);
    } finally {
      await hooks.stop();
      hooks.start();
    }
  });
});

describe('webhooks that stop receiving', () => {
  it('when a webhook is disabled, then its due deliveries are given up unsent and new changes are not sent to it', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = () => 500;
    await addManual(accountId, [uniqueEmail()]);
    await receivedCount(receiver, 1);

    await updateWebhook(hooks.database.db, accountId, webhook.id, { status: 'disabled' });
    await addManual(accountId, [uniqueEmail()]);
    await eventually(async () => (await deliveryRows(webhook.id))[0]?.status === 'failed', 15_000, 'given up');
    await nothingMoreToDeliver(accountId);

    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRows(webhook.id)).toHaveLength(1);
  });

  it('when a webhook is removed, then its deliveries go with it and nothing more is sent', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = () => 500;
    await addManual(accountId, [uniqueEmail()]);
    await receivedCount(receiver, 1);

    await removeWebhook(hooks.database.db, accountId, webhook.id);
    await addManual(accountId, [uniqueEmail()]);
    await nothingMoreToDeliver(accountId);

    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRows(webhook.id)).toHaveLength(0);
  });
});

describe('nothing is lost', () => {
  it('when changes are made while no worker runs, then they are all delivered once one starts', async () => {
    await hooks.stop();
    const { accountId, receiver } = await hooks.subscriber();
    const emails = uniqueEmails(25);
    await addManual(accountId, emails);
    hooks.start();

    await acceptedCount(receiver, 25);
    expect(
      receiver
        .accepted()
        .map((delivery) => JSON.parse(delivery.body).data.email)
        .sort(),
    ).toEqual([...emails].sort());
  });

  it('when a delivery was made but its job never queued, then the sweep queues it and it is delivered', async () => {
    await hooks.stop();
    const { accountId, webhook, receiver } = await hooks.subscriber();
    await addManual(accountId, [uniqueEmail()]);
    // The outbox row becomes a delivery, as the dispatcher would, but the job is never queued: what a
    // process that died between the commit and the queueing leaves behind.
    expect(await dispatchChanges(hooks.database.db, 100)).toHaveLength(1);
    const worker = hooks.start({ dispatch: { pollMs: 20, overdueGraceMs: 0 } });
    await sleep(200);
    expect(receiver.received).toHaveLength(0);

    await worker.dispatcher.sweep();
    await acceptedCount(receiver, 1);
    expect((await settledDeliveries(webhook.id, 1))[0]!.status).toBe('success');
    await hooks.stop();
    hooks.start();
  });

  it('when the worker process is killed with SIGKILL in the middle of an attempt, then the worker that takes over delivers the change', async () => {
    await hooks.stop();
    const { accountId, webhook, receiver } = await hooks.subscriber();
    receiver.answer = (_delivery, index) => (index === 0 ? 'hang' : 200);
    const child = await startWorkerProcess({
      databaseUrl: hooks.database.url,
      redisUrl: hooks.deliveries.redisUrl,
      prefix: hooks.deliveries.prefix,
      lockDurationMs: 1000,
    });
    const [added] = await addManual(accountId, [uniqueEmail()]);
    await receivedCount(receiver, 1);
    await child.kill();

    hooks.start();
    await acceptedCount(receiver, 1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(JSON.parse(receiver.accepted()[0]!.body).data.id).toBe(added!.id);
    // The killed attempt never came back, so it was never recorded; the one that answered was.
    expect(await settledDeliveries(webhook.id, 1)).toEqual([
      expect.objectContaining({ status: 'success', attempt_count: 1 }),
    ]);
    await hooks.stop();
    hooks.start();
  });

  it('when an attempt was already recorded by another worker, then a second record of the same attempt is refused', async () => {
    const { accountId, webhook, receiver } = await hooks.subscriber();
    await addManual(accountId, [uniqueEmail()]);
    await acceptedCount(receiver, 1);
    const [row] = await settledDeliveries(webhook.id, 1);

    const again = await recordAttempt(hooks.database.db, {
      deliveryId: row!.id,
      attempt: 0,
      httpStatusCode: 200,
      response: 'late',
      sentAt: new Date(),
      durationMs: 1,
      status: 'success',
      nextAttemptAt: null,
    });
    expect(again).toBe(false);
    expect(await attemptsOf(row!.id)).toHaveLength(1);
  });
});
