import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import {
  deliveryId,
  describeFeedScenarios,
  fixture,
  jobsOf,
  recorded,
  suppression,
  type CreatedFeed,
} from '../support/feed-contract.js';
import { startSnsSigner, type SnsSigner } from '../support/feed-signers.js';
import { closedPort } from '../support/unreachable.js';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:ses-notifications';
const OTHER_TOPIC = 'arn:aws:sns:us-east-1:123456789012:someone-elses';
// SNS posts its JSON as text/plain.
const SNS_HEADERS = { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' };

const app = useFeedApp();
let sns: SnsSigner;
beforeAll(async () => {
  sns = await startSnsSigner();
});
afterAll(async () => {
  await sns?.close();
});

const scenarios = describeFeedScenarios(app, {
  provider: 'ses',
  settings: () => ({ topicArns: [TOPIC] }),
  appOptions: () => ({ feeds: { snsExtraCertHosts: [sns.host] } }),
  sign(payload, _created, { id, forged }) {
    const envelope = sns.notification(TOPIC, payload, { messageId: id });
    if (forged) envelope.Message = `${envelope.Message} `;
    return { body: JSON.stringify(envelope), headers: SNS_HEADERS };
  },
  permanent: { fixture: 'bounce-permanent.json', emails: ['jane@example.com'] },
  transient: { fixture: 'bounce-transient.json', emails: ['jane@example.com'] },
  complaint: { fixture: 'complaint.json', emails: ['richard@example.com'] },
  // SES's documented example: Permanent and General, with no diagnostic code, a label and nothing else.
  multiRecipient: {
    fixture: 'bounce-permanent-multiple-recipients.json',
    emails: ['jane@example.com', 'richard@example.com'],
    suppressed: false,
  },
  ignored: { fixture: 'delivery.json' },
});

async function newSesFeed(): Promise<CreatedFeed> {
  return app.newFeed('ses', { topicArns: [TOPIC] });
}

function post(created: CreatedFeed, envelope: Record<string, string>, headers = SNS_HEADERS, server?: RunningServer) {
  return app.send(created.feed, JSON.stringify(envelope), headers, server ?? scenarios.live());
}

describe('SES through SNS', () => {
  it('when a message is signed with SignatureVersion 2 (SHA256withRSA), then it is taken like version 1', async () => {
    const created = await newSesFeed();
    const envelope = sns.notification(TOPIC, fixture('ses', 'bounce-permanent.json'), { version: '2' });
    expect((await post(created, envelope)).status).toBe(200);
    expect(await suppression(created, 'jane@example.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when SES publishes through a configuration set (eventType) with the email-id tag, then the tag is the source_id', async () => {
    const created = await newSesFeed();
    const emailId = randomUUID();
    const event = JSON.parse(fixture('ses', 'event-publishing-bounce.json'));
    event.mail.tags.email_id = [emailId];
    expect((await post(created, sns.notification(TOPIC, JSON.stringify(event)))).status).toBe(200);
    expect(await suppression(created, 'recipient@example.com')).toMatchObject({ origin: 'bounce', source_id: emailId });
    const [stored] = await accountEvents(app.database.db, created.account.accountId);
    expect(stored?.provider_message_id).toBe(event.mail.messageId);
  });

  it('when a complaint comes through a configuration set, then its recipient is suppressed as a complaint', async () => {
    const created = await newSesFeed();
    const envelope = sns.notification(TOPIC, fixture('ses', 'event-publishing-complaint.json'));
    expect((await post(created, envelope)).status).toBe(200);
    expect(await suppression(created, 'recipient@example.com')).toMatchObject({ origin: 'complaint' });
  });

  it('when a message is from a topic the feed does not take, then it is refused before any certificate is fetched', async () => {
    const created = await newSesFeed();
    const before = sns.certificateRequests();
    const answer = await post(created, sns.notification(OTHER_TOPIC, fixture('ses', 'bounce-permanent.json')));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('topic');
    expect(sns.certificateRequests()).toBe(before);
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when the signing certificate is on a host that is not SNS, then the message is refused and nothing is fetched', async () => {
    const created = await newSesFeed();
    const elsewhere = `http://127.0.0.1:${await closedPort()}/cert.pem`;
    const envelope = sns.notification(TOPIC, fixture('ses', 'bounce-permanent.json'), { certUrl: elsewhere });
    const answer = await post(created, envelope);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('not on an SNS host');
  });

  it('when the certificate host does not answer, then it answers 503 so that SNS retries', async () => {
    const port = await closedPort();
    const server = await app.startApp({
      redis: 'live',
      queues: true,
      feeds: { snsExtraCertHosts: [`127.0.0.1:${port}`] },
    });
    const created = await newSesFeed();
    const envelope = sns.notification(TOPIC, fixture('ses', 'bounce-permanent.json'), {
      certUrl: `http://127.0.0.1:${port}/cert.pem`,
    });
    const answer = await post(created, envelope, SNS_HEADERS, server);
    expect(answer.status).toBe(503);
    expect(answer.body.name).toBe('service_unavailable');
  });

  it('when SNS retries a message days later with its original Timestamp, then it is still taken', async () => {
    const created = await newSesFeed();
    const envelope = sns.notification(TOPIC, fixture('ses', 'bounce-permanent.json'), {
      timestamp: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    expect((await post(created, envelope)).status).toBe(200);
    await suppression(created, 'jane@example.com');
  });

  it('when a subscription confirmation for the feed’s topic arrives, then its SubscribeURL is requested and it answers 200', async () => {
    const created = await newSesFeed();
    const confirmation = sns.subscriptionConfirmation(TOPIC);
    const answer = await post(created, confirmation, {
      ...SNS_HEADERS,
      'x-amz-sns-message-type': 'SubscriptionConfirmation',
    });
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 0, ignored: 0 } });
    expect(sns.confirmations).toContain(
      new URL(confirmation.SubscribeURL as string).pathname + new URL(confirmation.SubscribeURL as string).search,
    );
  });

  it('when a subscription confirmation is for another topic or forged, then nothing is confirmed', async () => {
    const created = await newSesFeed();
    const count = sns.confirmations.length;
    expect((await post(created, sns.subscriptionConfirmation(OTHER_TOPIC))).status).toBe(401);
    const forged = sns.subscriptionConfirmation(TOPIC);
    forged.SubscribeURL = `${forged.SubscribeURL}&more=1`;
    expect((await post(created, forged)).status).toBe(401);
    expect(sns.confirmations.length).toBe(count);
  });

  it('when the subscription is ended (UnsubscribeConfirmation), then it is acknowledged and nothing is queued', async () => {
    const created = await newSesFeed();
    const ended = sns.subscriptionConfirmation(TOPIC, { type: 'UnsubscribeConfirmation' });
    expect((await post(created, ended)).status).toBe(200);
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when raw message delivery is on, then it answers 400 invalid_payload saying to turn it off', async () => {
    const created = await newSesFeed();
    const raw = await app.send(
      created.feed,
      fixture('ses', 'bounce-permanent.json'),
      { 'x-amz-sns-rawdelivery': 'true' },
      scenarios.live(),
    );
    expect(raw.status).toBe(400);
    expect(raw.body).toMatchObject({
      name: 'invalid_payload',
      message: expect.stringContaining('raw message delivery'),
    });
    const bare = await app.send(created.feed, fixture('ses', 'bounce-permanent.json'), {}, scenarios.live());
    expect(bare.status).toBe(400);
  });

  it('when SES sends its plain-text setup message, then it is acknowledged', async () => {
    const created = await newSesFeed();
    const setup = sns.notification(TOPIC, 'Successfully validated SNS topic for Amazon SES event publishing.');
    const answer = await post(created, setup);
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 0, ignored: 1 } });
  });

  it('when the same notification arrives on two deliveries of the same SNS message, then each recipient is one event', async () => {
    const created = await newSesFeed();
    const id = deliveryId();
    const payload = fixture('ses', 'bounce-permanent-multiple-recipients.json');
    await post(created, sns.notification(TOPIC, payload, { messageId: id }));
    await post(created, sns.notification(TOPIC, payload, { messageId: id }));
    const events = await recorded(app, created.account.accountId, 2);
    expect(events.map((event) => event.event_id).sort()).toEqual([
      `ses:${id}:jane@example.com`,
      `ses:${id}:richard@example.com`,
    ]);
  });
});
