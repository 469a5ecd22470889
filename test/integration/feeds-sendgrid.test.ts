import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { useFeedApp } from '../support/feed-app.js';
import { describeFeedScenarios, fixture, jobsOf, suppression } from '../support/feed-contract.js';
import { sendGridSigner } from '../support/feed-signers.js';
import { unreachableDatabase } from '../support/unreachable.js';

const app = useFeedApp();
const signer = sendGridSigner();
const impostor = sendGridSigner();

const scenarios = describeFeedScenarios(app, {
  provider: 'sendgrid',
  settings: () => ({ publicKey: signer.publicKey }),
  sign: (payload, _created, { forged }) => ({ body: payload, headers: (forged ? impostor : signer).headers(payload) }),
  permanent: { fixture: 'bounce-permanent.json', emails: ['example@test.com'] },
  // A block of the sending IP, which SendGrid reports as `blocked`: recorded, never suppressed.
  transient: { fixture: 'bounce-blocked-reputation.json', emails: ['example@test.com'] },
  complaint: { fixture: 'spamreport.json', emails: ['example@test.com'] },
  multiRecipient: {
    fixture: 'bounce-batch-two-recipients.json',
    emails: ['example@test.com', 'example2@test.com'],
    suppressed: true,
  },
  ignored: { fixture: 'delivered.json' },
});

const newFeed = () => app.newFeed('sendgrid', { publicKey: signer.publicKey });

describe('SendGrid Event Webhook', () => {
  it('when SendGrid calls a bounce a block but the server said the recipient is unknown, then the text decides: it is suppressed', async () => {
    const created = await newFeed();
    const body = fixture('sendgrid', 'bounce-blocked.json');
    expect((await app.send(created.feed, body, signer.headers(body), scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'example@test.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when the signed timestamp is more than 5 minutes old or ahead, then it answers 401 and queues nothing', async () => {
    const created = await newFeed();
    const body = fixture('sendgrid', 'bounce-permanent.json');
    // Taken at each send, and ahead by more than the second the request may take to be read: a time
    // just 301 s ahead, fixed before the first send, was less than 300 s ahead by the second one.
    for (const offset of [-301, 310]) {
      const timestamp = Math.floor(Date.now() / 1000) + offset;
      const answer = await app.send(created.feed, body, signer.headers(body, timestamp), scenarios.live());
      expect(answer.status).toBe(401);
      expect(answer.body.message).toContain('more than 5 minutes');
    }
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when a batch holds every kind of event, then its bounce and spam report are queued and the rest acknowledged', async () => {
    const created = await newFeed();
    const body = fixture('sendgrid', 'batch-every-event-kind.json');
    const answer = await app.send(created.feed, body, signer.headers(body), scenarios.live());
    // The documented batch gives every event the same placeholder sg_event_id, so its bounce and
    // spam report of one address are one event: the bounce, which comes first.
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 2, ignored: 9 } });
    expect(await suppression(created, 'example@test.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when the bounce carries the email-id custom argument, then it is the source_id', async () => {
    const created = await newFeed();
    const emailId = randomUUID();
    const [bounce] = JSON.parse(fixture('sendgrid', 'bounce-permanent.json'));
    const body = JSON.stringify([{ ...bounce, email_id: emailId }]);
    expect((await app.send(created.feed, body, signer.headers(body), scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'example@test.com')).toMatchObject({ source_id: emailId });
  });

  it('when the batch is not an array of events, then it answers 400 invalid_payload naming the fault', async () => {
    const created = await newFeed();
    const body = JSON.stringify([{ event: 'bounce', email: 'a@example.com', timestamp: 1513299569 }]);
    const answer = await app.send(created.feed, body, signer.headers(body), scenarios.live());
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: 400,
      name: 'invalid_payload',
      message: 'Not a SendGrid Event Webhook batch: `[0].sg_event_id` is required.',
    });
  });

  let unreachable: Database | undefined;
  afterAll(async () => {
    await unreachable?.close();
  });

  it('when PostgreSQL does not answer, then it answers 503 so that SendGrid retries', async () => {
    const created = await newFeed();
    unreachable = await unreachableDatabase({ connectTimeoutMs: 500 });
    const server = await app.startApp({ db: unreachable, redis: 'live', queues: true });
    const body = fixture('sendgrid', 'bounce-permanent.json');
    const answer = await app.send(created.feed, body, signer.headers(body), server);
    expect(answer.status).toBe(503);
    expect(answer.body.name).toBe('service_unavailable');
  });

  it('when feeds have been used, then /metrics counts requests by answer, events by kind and verification failures', async () => {
    const created = await newFeed();
    const body = fixture('sendgrid', 'bounce-permanent.json');
    await app.send(created.feed, body, signer.headers(body), app.server);
    await app.send(created.feed, body, impostor.headers(body), app.server);
    const metrics = await (await fetch(`${app.server.url}/metrics`)).text();
    expect(metrics).toMatch(/feed_requests_total\{provider="sendgrid",status="200"\} [1-9]/);
    expect(metrics).toMatch(/feed_requests_total\{provider="sendgrid",status="401"\} [1-9]/);
    expect(metrics).toMatch(/feed_events_total\{provider="sendgrid",kind="permanent_bounce"\} [1-9]/);
    expect(metrics).toMatch(/feed_verification_failures_total\{provider="sendgrid",reason="signature"\} [1-9]/);
  });
});
