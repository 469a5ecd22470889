import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import { describeFeedScenarios, fixture, recorded, suppression, type CreatedFeed } from '../support/feed-contract.js';
import { basicAuth } from '../support/feed-signers.js';

const app = useFeedApp();

/** The account's bounces as the classifier filed them, oldest first. */
async function classificationsOf(created: CreatedFeed) {
  const { rows } = await app.database.db.query({
    text: `SELECT email, source_id, bounce_type, bounce_category, bounce_rule, outcome FROM suppression_events
           WHERE account_id = $1 ORDER BY received_at, event_id`,
    values: [created.account.accountId],
  });
  return rows;
}

function credentials(created: CreatedFeed, forged = false): Record<string, string> {
  const { username, password } = created.shown as { username: string; password: string };
  return { authorization: basicAuth(username, forged ? `${password}x` : password) };
}

const scenarios = describeFeedScenarios(app, {
  provider: 'postmark',
  settings: () => ({}),
  sign: (payload, created, { forged }) => ({ body: payload, headers: credentials(created, forged) }),
  permanent: { fixture: 'bounce-hard-user-unknown.json', emails: ['john@example.com'] },
  transient: { fixture: 'bounce-soft.json', emails: ['john@example.com'] },
  complaint: { fixture: 'spam-complaint.json', emails: ['john@example.com'] },
  ignored: { fixture: 'delivery.json' },
});

describe('Postmark webhooks', () => {
  it('when there are no credentials, then it answers 401', async () => {
    const created = await app.newFeed('postmark');
    const answer = await app.send(created.feed, fixture('postmark', 'bounce-hard.json'), {}, scenarios.live());
    expect(answer.status).toBe(401);
    expect(answer.body.name).toBe('invalid_signature');
  });

  it('when the Message ID is Postmark’s, then it is the source_id and the provider message id', async () => {
    const created = await app.newFeed('postmark');
    const body = fixture('postmark', 'bounce-hard-user-unknown.json');
    expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'john@example.com')).toMatchObject({
      source_id: '883953f4-6105-42a2-a16a-77a8eac79483',
    });
    const [stored] = await accountEvents(app.database.db, created.account.accountId);
    expect(stored).toMatchObject({
      event_id: 'postmark:4323372036854775807:john@example.com',
      provider_message_id: '883953f4-6105-42a2-a16a-77a8eac79483',
    });
  });

  it('when a bounce’s details hold NUL and an unpaired surrogate, then the bounce is applied, its diagnostic without them', async () => {
    const created = await app.newFeed('postmark');
    const body = fixture('postmark', 'bounce-hard.json').replace(
      '"Details": "Test bounce details"',
      '"Details": "smtp;550 5.1.1 user unknown\\u0000 \\ud800"',
    );
    expect(body).toContain('\\u0000');
    expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    const { rows } = await app.database.db.query({
      text: 'SELECT bounce_diagnostic FROM suppression_events WHERE account_id = $1',
      values: [created.account.accountId],
    });
    expect(rows).toEqual([{ bounce_diagnostic: 'smtp;550 5.1.1 user unknown \ufffd' }]);
    expect(await suppression(created, 'john@example.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when the feed reads the message stream, then a complaint stops only that stream’s sends, and a bounce every send', async () => {
    const created = await app.newFeed('postmark', {}, 'stream');
    const { api } = created.account;
    const complaint = fixture('postmark', 'spam-complaint.json').replace(
      /"MessageStream":\s*"outbound"/,
      '"MessageStream": "Broadcast"',
    );
    expect((await app.send(created.feed, complaint, credentials(created), scenarios.live())).status).toBe(200);
    await recorded(app, created.account.accountId, 1);

    const check = async (scope?: string) =>
      (await api.post('/suppressions/check', { emails: ['john@example.com'], ...(scope && { scope }) })).body
        .suppressed;
    expect(await check('broadcast')).toEqual([expect.objectContaining({ origin: 'complaint', scope: 'broadcast' })]);
    expect(await check()).toEqual([]);

    const bounce = fixture('postmark', 'bounce-hard-user-unknown.json').replace(
      /"MessageStream":\s*"outbound"/,
      '"MessageStream": "Broadcast"',
    );
    expect((await app.send(created.feed, bounce, credentials(created), scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'john@example.com')).toMatchObject({ origin: 'bounce', scope: null });
  });

  it('when two bounces have IDs that differ past 2^53, then they are two events', async () => {
    const created = await app.newFeed('postmark');
    const sample = fixture('postmark', 'bounce-soft.json');
    for (const id of ['4323372036854775807', '4323372036854775808']) {
      const body = sample.replace(/"ID":\s*\d+/, `"ID": ${id}`);
      expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    }
    const events = await recorded(app, created.account.accountId, 2);
    expect(events.map((event) => event.event_id).sort()).toEqual([
      'postmark:4323372036854775807:john@example.com',
      'postmark:4323372036854775808:john@example.com',
    ]);
  });

  it('when a broadcast stream reports a hard bounce as a subscription change, then it is recorded as a bounce nothing explains, the label kept, and its recipient is not suppressed at once', async () => {
    const created = await app.newFeed('postmark');
    const body = fixture('postmark', 'subscription-change-hard-bounce.json');
    expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    expect(await classificationsOf(created)).toEqual([
      {
        email: 'bounced-address@example.com',
        source_id: '883953f4-6105-42a2-a16a-77a8eac79483',
        bounce_type: 'permanent',
        bounce_category: 'unknown',
        bounce_rule: 'label:permanent',
        outcome: 'not_suppressed',
      },
    ]);
    const entry = await created.account.api.get('/suppressions/bounced-address%40example.com');
    expect(entry.status).toBe(404);
  });

  it('when Postmark’s sample hard bounce arrives, with no answer of the receiving server, then it is unknown whatever its label and suppresses nobody', async () => {
    const created = await app.newFeed('postmark');
    const body = fixture('postmark', 'bounce-hard.json');
    expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    expect(await classificationsOf(created)).toMatchObject([
      {
        email: 'john@example.com',
        bounce_category: 'unknown',
        bounce_rule: 'label:permanent',
        outcome: 'not_suppressed',
      },
    ]);
    expect((await created.account.api.get('/suppressions/john%40example.com')).status).toBe(404);
  });

  it('when three automatic replies arrive (two out-of-office, one challenge), then each is recorded as an auto_reply bounce and none suppresses or counts toward the threshold', async () => {
    const created = await app.newFeed('postmark');
    const bounce = JSON.parse(fixture('postmark', 'bounce-hard.json'));
    const replies = [
      { ID: 64001, Type: 'AutoResponder', TypeCode: 64, Details: 'I am out of the office until 2 December.' },
      { ID: 64002, Type: 'AutoResponder', TypeCode: 64, Details: '' },
      { ID: 64003, Type: 'ChallengeVerification', TypeCode: 16384, Details: 'Please verify your message.' },
    ];
    for (const reply of replies) {
      const body = JSON.stringify({ ...bounce, ...reply, Description: 'Automatic email responder.' });
      expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    }
    await recorded(app, created.account.accountId, 3);
    const filed = await classificationsOf(created);
    expect(filed).toHaveLength(3);
    for (const row of filed) {
      expect(row).toMatchObject({
        email: 'john@example.com',
        bounce_type: 'undetermined',
        bounce_category: 'auto_reply',
        outcome: 'not_suppressed',
      });
    }
    expect(filed.map((row) => row.bounce_rule).sort()).toEqual([
      'sub_type:autoresponder',
      'sub_type:challengeverification',
      'text:out of the office',
    ]);
    expect((await created.account.api.get('/suppressions/john%40example.com')).status).toBe(404);
  });

  it('when the message has the email-id metadata, then it is the source_id', async () => {
    const created = await app.newFeed('postmark');
    const emailId = randomUUID();
    const bounce = JSON.parse(fixture('postmark', 'bounce-hard-user-unknown.json'));
    const body = JSON.stringify({ ...bounce, ID: 7, Metadata: { email_id: emailId } });
    expect((await app.send(created.feed, body, credentials(created), scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'john@example.com')).toMatchObject({ source_id: emailId });
  });
});
