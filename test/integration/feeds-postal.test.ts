import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import {
  describeFeedScenarios,
  drained,
  fixture,
  jobsOf,
  recorded,
  suppression,
  type CreatedFeed,
} from '../support/feed-contract.js';

/** Postal's signing key, made here: the private half signs as Postal does, the public half makes the feed. */
function postalKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(), publicKey };
}

const postal = postalKey();
const impostor = postalKey();

/** Postal's headers: base64 RSA signatures of the raw body, with SHA-256 and (for older receivers) SHA-1. */
function signed(body: string, key: KeyObject = postal.privateKey) {
  return {
    'x-postal-signature-256': sign('sha256', Buffer.from(body), key).toString('base64'),
    'x-postal-signature': sign('sha1', Buffer.from(body), key).toString('base64'),
  };
}

const app = useFeedApp();

const scenarios = describeFeedScenarios(app, {
  provider: 'postal',
  settings: () => ({ postalPublicKey: postal.pem }),
  sign: (payload, _created, { forged }) => ({
    body: payload,
    headers: signed(payload, forged ? impostor.privateKey : postal.privateKey),
  }),
  permanent: { fixture: 'message-delivery-failed.json', emails: ['test@example.com'] },
  transient: { fixture: 'message-delayed.json', emails: ['full@example.com'] },
  ignored: { fixture: 'message-sent.json' },
});

const newFeed = () => app.newFeed('postal', { postalPublicKey: postal.pem });

async function send(created: CreatedFeed, body: string, headers: Record<string, string> = signed(body)) {
  return app.send(created.feed, body, headers, scenarios.live());
}

const webhook = (name: string): Record<string, any> => JSON.parse(fixture('postal', name));

describe('Postal webhooks', () => {
  it('when MessageDeliveryFailed arrives with a valid RSA-SHA256 signature, then the classifier reads the server’s answer and the dead address is suppressed', async () => {
    const created = await newFeed();
    const body = fixture('postal', 'message-delivery-failed.json');
    const answer = await send(created, body, { 'x-postal-signature-256': signed(body)['x-postal-signature-256'] });
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 1, ignored: 0 } });
    expect(await suppression(created, 'test@example.com')).toMatchObject({ origin: 'bounce' });
    const { rows } = await app.database.db.query({
      text: `SELECT event_id, bounce_type, bounce_sub_type, bounce_category, provider_message_id
             FROM suppression_events WHERE account_id = $1`,
      values: [created.account.accountId],
    });
    expect(rows).toEqual([
      {
        event_id: 'postal:7f0c2e5a-9d43-4b8e-a1f6-5c3b9e2d7a48:test@example.com',
        bounce_type: 'permanent',
        bounce_sub_type: 'HardFail',
        bounce_category: 'invalid_address',
        provider_message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
      },
    ]);
  });

  it('when an older Postal signs with SHA-1 only, then the request is accepted', async () => {
    const created = await newFeed();
    const body = fixture('postal', 'message-delivery-failed.json');
    const answer = await send(created, body, { 'x-postal-signature': signed(body)['x-postal-signature'] });
    expect(answer.status).toBe(200);
    await suppression(created, 'test@example.com');
  });

  it('when the signature is forged or the body changed after signing, then it answers 401 invalid_signature and queues nothing', async () => {
    const created = await newFeed();
    const body = fixture('postal', 'message-delivery-failed.json');
    const altered = body.replace('test@example.com', 'victim@example.com');
    for (const [sent, headers] of [
      [body, signed(body, impostor.privateKey)],
      [altered, signed(body)],
      [body, {}],
    ] as const) {
      const answer = await send(created, sent, headers);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ statusCode: 401, name: 'invalid_signature', message: expect.any(String) });
    }
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when Postal reports a hard failure whose answer refuses the sender, then it is recorded and not suppressed: the classifier decides', async () => {
    const created = await newFeed();
    expect((await send(created, fixture('postal', 'message-delivery-failed-blocklisted.json'))).status).toBe(200);
    const [stored] = await recorded(app, created.account.accountId, 1);
    expect(stored).toMatchObject({ email: 'reader@example.net', bounce_type: 'permanent', outcome: 'not_suppressed' });
    const { rows } = await app.database.db.query({
      text: 'SELECT bounce_category, bounce_reason FROM suppression_events WHERE account_id = $1',
      values: [created.account.accountId],
    });
    expect(rows).toEqual([{ bounce_category: 'sender_blocked', bounce_reason: 'blocklisted' }]);
    expect((await created.account.api.get('/suppressions/reader%40example.net')).status).toBe(404);
  });

  it('when Postal redelivers a webhook it already delivered, then it is applied once', async () => {
    const created = await newFeed();
    const body = fixture('postal', 'message-delivery-failed.json');
    expect((await send(created, body)).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    expect((await send(created, body)).status).toBe(200);
    await drained(app, created.account.accountId);
    expect(await accountEvents(app.database.db, created.account.accountId)).toHaveLength(1);
  });

  it('when one message is delayed on three attempts, then its delays are one transient bounce', async () => {
    const created = await newFeed();
    const delayed = webhook('message-delayed.json');
    // Each attempt is a webhook request of its own, with its own uuid.
    for (const attempt of [0, 1, 2]) {
      const body = JSON.stringify({
        ...delayed,
        uuid: randomUUID(),
        payload: { ...delayed.payload, timestamp: delayed.payload.timestamp + attempt * 600 },
      });
      expect((await send(created, body)).body).toMatchObject({ queued: 1 });
    }
    await drained(app, created.account.accountId);
    const events = await accountEvents(app.database.db, created.account.accountId);
    expect(events.map((event) => [event.event_id, event.bounce_type, event.outcome])).toEqual([
      ['postal:MessageDelayed:12348:full@example.com', 'transient', 'not_suppressed'],
    ]);
  });

  it('when Postal receives a bounce message for a sent message, then it is recorded as undetermined and suppresses nothing by itself', async () => {
    const created = await newFeed();
    expect((await send(created, fixture('postal', 'message-bounced.json'))).status).toBe(200);
    const [stored] = await recorded(app, created.account.accountId, 1);
    expect(stored).toMatchObject({ email: 'test@example.com', bounce_type: 'undetermined', outcome: 'not_suppressed' });
  });

  it('when a message is held by Postal, or was one Postal received, then it is acknowledged and nothing is queued', async () => {
    const created = await newFeed();
    const incoming = webhook('message-delivery-failed.json');
    incoming.payload.message.direction = 'incoming';
    for (const body of [fixture('postal', 'message-held.json'), JSON.stringify(incoming)]) {
      expect((await send(created, body)).body).toMatchObject({ queued: 0, ignored: 1 });
    }
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when the feed was made with the DKIM record Postal prints, then its signatures verify', async () => {
    const der = postal.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const created = await app.newFeed('postal', { postalPublicKey: `v=DKIM1; t=s; h=sha256; p=${der};` });
    expect((await send(created, fixture('postal', 'message-delivery-failed.json'))).status).toBe(200);
    await suppression(created, 'test@example.com');
  });
});
