import { randomUUID } from 'node:crypto';
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
import { basicAuth } from '../support/feed-signers.js';

const app = useFeedApp();

function credentials(created: CreatedFeed, forged = false): Record<string, string> {
  const { username, password } = created.shown as { username: string; password: string };
  return { authorization: basicAuth(username, forged ? `${password}x` : password) };
}

const scenarios = describeFeedScenarios(app, {
  provider: 'kumomta',
  settings: () => ({}),
  sign: (payload, created, { forged }) => ({ body: payload, headers: credentials(created, forged) }),
  permanent: { fixture: 'bounce.json', emails: ['nobody@recipient.example.com'] },
  transient: { fixture: 'transient-failure.json', emails: ['full@recipient.example.com'] },
  complaint: { fixture: 'feedback.json', emails: ['test@example.com'] },
  multiRecipient: {
    fixture: 'bounce-multiple-recipients.json',
    emails: ['nobody@recipient.example.com', 'noone@recipient.example.com'],
    suppressed: true,
  },
  ignored: { fixture: 'delivery.json' },
});

const record = (name: string): Record<string, unknown> => JSON.parse(fixture('kumomta', name));

async function send(created: CreatedFeed, body: string, headers = credentials(created)) {
  return app.send(created.feed, body, headers, scenarios.live());
}

/** The audit columns a KumoMTA event fills beyond those of accountEvents. */
async function evidence(created: CreatedFeed) {
  const { rows } = await app.database.db.query({
    text: `SELECT email, outcome, bounce_type, bounce_sub_type, bounce_status, bounce_reply_code, bounce_remote_mta,
                  bounce_category, complaint_feedback_type
           FROM suppression_events WHERE account_id = $1 ORDER BY received_at, event_id`,
    values: [created.account.accountId],
  });
  return rows;
}

describe('KumoMTA log hook', () => {
  it('when a Bounce arrives with the feed’s credentials, then the dead address is suppressed and KumoMTA’s classification is kept beside the service’s', async () => {
    const created = await app.newFeed('kumomta');
    expect((await send(created, fixture('kumomta', 'bounce.json'))).status).toBe(200);
    expect(await suppression(created, 'nobody@recipient.example.com')).toMatchObject({ origin: 'bounce' });
    expect(await evidence(created)).toEqual([
      {
        email: 'nobody@recipient.example.com',
        outcome: 'suppressed',
        bounce_type: 'permanent',
        bounce_sub_type: 'InvalidRecipient',
        bounce_status: '5.1.1',
        bounce_reply_code: '550',
        bounce_remote_mta: 'gmail-smtp-in.l.google.com',
        bounce_category: 'invalid_address',
        complaint_feedback_type: null,
      },
    ]);
  });

  it('when the credentials are wrong or missing, then it answers 401 invalid_signature and records nothing', async () => {
    const created = await app.newFeed('kumomta');
    const body = fixture('kumomta', 'bounce.json');
    for (const headers of [credentials(created, true), {}, { authorization: 'Bearer not-the-password' }]) {
      const answer = await send(created, body, headers);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ statusCode: 401, name: 'invalid_signature', message: expect.any(String) });
    }
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
    expect(await accountEvents(app.database.db, created.account.accountId)).toEqual([]);
  });

  it('when the policy sends the password as a bearer token, then the request is accepted', async () => {
    const created = await app.newFeed('kumomta');
    const { password } = created.shown as { password: string };
    const answer = await send(created, fixture('kumomta', 'bounce.json'), { authorization: `Bearer ${password}` });
    expect(answer.status).toBe(200);
    await suppression(created, 'nobody@recipient.example.com');
  });

  it('when a TransientFailure arrives, then it is recorded as a transient bounce and nothing is suppressed', async () => {
    const created = await app.newFeed('kumomta');
    expect((await send(created, fixture('kumomta', 'transient-failure.json'))).status).toBe(200);
    const [stored] = await recorded(app, created.account.accountId, 1);
    expect(stored).toMatchObject({
      email: 'full@recipient.example.com',
      bounce_type: 'transient',
      outcome: 'not_suppressed',
    });
    expect(
      (await created.account.api.get(`/suppressions/${encodeURIComponent('full@recipient.example.com')}`)).status,
    ).toBe(404);
  });

  it('when KumoMTA classifies an OOB record as an automatic reply, then it is recorded as an auto_reply bounce and suppresses nothing', async () => {
    const created = await app.newFeed('kumomta');
    const reply = {
      ...record('oob.json'),
      bounce_classification: 'AutoReply',
      response: { code: null, enhanced_code: null, content: 'Thank you for your email. I am away until Monday.' },
    };
    expect((await send(created, JSON.stringify(reply))).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    expect(await evidence(created)).toEqual([
      expect.objectContaining({
        email: 'gone@recipient.example.com',
        outcome: 'not_suppressed',
        bounce_type: 'undetermined',
        bounce_sub_type: 'autoresponder',
        bounce_category: 'auto_reply',
      }),
    ]);
    expect((await created.account.api.get('/suppressions/gone%40recipient.example.com')).status).toBe(404);
  });

  it('when one message fails transiently on three attempts, then its failures are one event', async () => {
    const created = await app.newFeed('kumomta');
    const failure = record('transient-failure.json');
    for (const attempt of [1, 2, 3]) {
      const retried = { ...failure, num_attempts: attempt, timestamp: 1757675281 + attempt * 1200, event_time: null };
      expect((await send(created, JSON.stringify(retried))).body).toMatchObject({ queued: 1 });
    }
    await drained(app, created.account.accountId);
    const events = await accountEvents(app.database.db, created.account.accountId);
    expect(events.map((event) => event.event_id)).toEqual([
      'kumomta:TransientFailure:6b0f1a73bbbc11ed940250ebf67f93bd:full@recipient.example.com',
    ]);
  });

  it('when a Feedback record arrives, then the complainant its report names is suppressed as a complaint of its feedback type', async () => {
    const created = await app.newFeed('kumomta');
    expect((await send(created, fixture('kumomta', 'feedback.json'))).status).toBe(200);
    expect(await suppression(created, 'test@example.com')).toMatchObject({ origin: 'complaint' });
    expect(await evidence(created)).toEqual([
      expect.objectContaining({ email: 'test@example.com', outcome: 'suppressed', complaint_feedback_type: 'abuse' }),
    ]);
  });

  it('when a batch holds a record type KumoMTA may add later, then the batch is accepted, that record ignored and the others applied', async () => {
    const created = await app.newFeed('kumomta');
    const batch = [record('bounce.json'), { ...record('delivery.json'), type: 'Teleported' }, record('delivery.json')];
    const answer = await send(created, JSON.stringify(batch));
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 1, ignored: 2 } });
    await suppression(created, 'nobody@recipient.example.com');
    await drained(app, created.account.accountId);
    expect(await accountEvents(app.database.db, created.account.accountId)).toHaveLength(1);
  });

  it('when a batch comes as one record per line, then each line is a record', async () => {
    const created = await app.newFeed('kumomta');
    const answer = await send(created, fixture('kumomta', 'batch.ndjson'));
    expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: 2, ignored: 1 } });
    await suppression(created, 'nobody@recipient.example.com');
  });

  it('when the receiving server refused the sender and KumoMTA logged a Bounce, then it is recorded and nothing is suppressed: the classifier decides', async () => {
    const created = await app.newFeed('kumomta');
    expect((await send(created, fixture('kumomta', 'bounce-blocklisted.json'))).status).toBe(200);
    await recorded(app, created.account.accountId, 1);
    expect(await evidence(created)).toEqual([
      expect.objectContaining({
        email: 'reader@recipient.example.com',
        outcome: 'not_suppressed',
        bounce_type: 'permanent',
        bounce_sub_type: 'SpamBlock',
        bounce_category: 'sender_blocked',
      }),
    ]);
    const entry = await created.account.api.get(`/suppressions/${encodeURIComponent('reader@recipient.example.com')}`);
    expect(entry.status).toBe(404);
  });

  it('when an out-of-band bounce report names a failed recipient, then that recipient is suppressed', async () => {
    const created = await app.newFeed('kumomta');
    expect((await send(created, fixture('kumomta', 'oob.json'))).status).toBe(200);
    expect(await suppression(created, 'gone@recipient.example.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when the hook logs the email-id meta field, then it is the source_id', async () => {
    const created = await app.newFeed('kumomta');
    const emailId = randomUUID();
    const body = JSON.stringify({ ...record('bounce.json'), meta: { email_id: emailId } });
    expect((await send(created, body)).status).toBe(200);
    expect(await suppression(created, 'nobody@recipient.example.com')).toMatchObject({ source_id: emailId });
  });

  it('when the body is not JSON records, then it answers 400 invalid_payload naming the line, and queues nothing', async () => {
    const created = await app.newFeed('kumomta');
    const body = `${JSON.stringify(record('bounce.json'))}\nnot a record\n`;
    const answer = await send(created, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ name: 'invalid_payload', message: expect.stringContaining('line 2') });
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });
});
