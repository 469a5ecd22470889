import { describe, expect, it } from 'vitest';
import { newAccount, newKey } from '../support/accounts.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { arf, autoReply, dsn, personalMessage } from '../support/mail-messages.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { useMailWorkerBeside } from '../support/test-mail-worker.js';
import { eventually } from '../support/test-queue.js';

const SETTINGS = { BOUNCE_DOMAINS: 'bounces.example.com', MAIL_MAX_MESSAGE_BYTES: String(64 * 1024) };
const app = useTestApp({ queues: true, env: SETTINGS });
useEventWorkerBeside(app);
useMailWorkerBeside(app, SETTINGS);

async function returnPathOf(owner: ApiAccount, recipient: string, messageId?: string): Promise<string> {
  const answer = await owner.api.post('/return-paths', {
    recipients: [recipient],
    ...(messageId === undefined ? {} : { message_id: messageId }),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { data: { return_path: string }[] }).data[0]!.return_path;
}

/** `POST /messages` (or `/messages/parse`) with one raw message. */
async function post(token: string, message: Buffer, path = '/messages') {
  const response = await fetch(`${app.server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'message/rfc822' },
    body: message,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The row of a message once the mail worker has read it. */
async function readMessage(digest: string) {
  let row: { verified: boolean; unverified_reason: string | null; format: string; records: any[] } | undefined;
  await eventually(
    async () => {
      const { rows } = await app.database.db.query({
        text: 'SELECT verified, unverified_reason, format, records FROM mail_messages WHERE digest = $1',
        values: [Buffer.from(digest, 'hex')],
      });
      row = rows[0] as typeof row;
      return row !== undefined;
    },
    15_000,
    'the message read',
  );
  return row!;
}

async function entryOf(owner: ApiAccount, email: string) {
  return owner.api.get(`/suppressions/${encodeURIComponent(email)}`);
}

/** Waits until the account's audit trail has `count` events for the address. */
async function eventsOf(owner: ApiAccount, email: string, count = 1) {
  await eventually(
    async () => (await eventsForEmail(app.database.db, owner.accountId, email)).length >= count,
    15_000,
    `${count} events of ${email}`,
  );
  return eventsForEmail(app.database.db, owner.accountId, email);
}

describe('a bounce that came to a return path of the account', () => {
  it('when a DSN saying the mailbox does not exist is handed in, then it answers 202 and the recipient is suppressed as a bounce', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      { recipient, status: '5.1.1', diagnostic: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown` },
    ]);

    const queued = await post(owner.token, message);

    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({
      object: 'mail_message',
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: 'queued',
    });
    expect(await eventsOf(owner, recipient)).toMatchObject([{ type: 'bounce', outcome: 'suppressed' }]);
    expect((await entryOf(owner, recipient)).body).toMatchObject({ email: recipient, origin: 'bounce' });
    expect(await readMessage(queued.body.id)).toMatchObject({
      verified: true,
      format: 'rfc3464',
      records: [{ kind: 'bounce', outcome: 'event', recipient }],
    });
  });

  it('when the same bytes are handed in twice, then they are applied once', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      { recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);

    const first = await post(owner.token, message);
    await readMessage(first.body.id);
    const second = await post(owner.token, message);

    expect(second).toEqual(first);
    expect(await eventsOf(owner, recipient)).toHaveLength(1);
  });

  it('when the report names another address than the return path (a forward), then the return path’s recipient is the one suppressed', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const forwardedTo = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      { recipient: forwardedTo, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);

    await readMessage((await post(owner.token, message)).body.id);

    expect(await eventsOf(owner, recipient)).toMatchObject([{ outcome: 'suppressed' }]);
    expect((await entryOf(owner, forwardedTo)).status).toBe(404);
  });

  it('when the receiving server refused the sender (a block list), then the bounce is recorded and nobody is suppressed', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      {
        recipient,
        status: '5.7.1',
        diagnostic: '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
      },
    ]);

    await readMessage((await post(owner.token, message)).body.id);

    expect(await eventsOf(owner, recipient)).toMatchObject([{ type: 'bounce', outcome: 'not_suppressed' }]);
    expect((await entryOf(owner, recipient)).status).toBe(404);
  });

  it('when a DSN only says the MTA keeps trying, then it is recorded with the message and no event is made', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      { recipient, status: '4.4.1', diagnostic: 'connect to mx.example.org: Connection timed out', action: 'delayed' },
    ]);

    const row = await readMessage((await post(owner.token, message)).body.id);

    expect(row.records).toMatchObject([{ kind: 'delay', outcome: 'recorded' }]);
    expect(await eventsForEmail(app.database.db, owner.accountId, recipient)).toEqual([]);
  });
});

describe('forged and foreign reports', () => {
  it('when a DSN came to no return path, then it is recorded as unverified and suppresses nobody', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn('bounces@bounces.example.com', [
      { recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);

    const row = await readMessage((await post(owner.token, message)).body.id);

    expect(row).toMatchObject({ verified: false, unverified_reason: 'no_return_path' });
    expect(row.records).toMatchObject([{ kind: 'bounce', outcome: 'unverified' }]);
    expect(await eventsForEmail(app.database.db, owner.accountId, recipient)).toEqual([]);
  });

  it('when the token of a return path was altered, then the report suppresses nobody', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const returnPath = await returnPathOf(owner, recipient);
    const at = returnPath.indexOf('@');
    const altered = `${returnPath.slice(0, at - 1)}${returnPath[at - 1] === 'a' ? 'b' : 'a'}${returnPath.slice(at)}`;

    const row = await readMessage(
      (await post(owner.token, dsn(altered, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }])))
        .body.id,
    );

    expect(row.verified).toBe(false);
    expect(['bad_signature', 'malformed']).toContain(row.unverified_reason);
    expect((await entryOf(owner, recipient)).status).toBe(404);
  });

  it('when an account hands in a report about another account’s return path, then it suppresses in neither account', async () => {
    const owner = await newApiAccount(app);
    const other = await newApiAccount(app);
    const recipient = uniqueEmail();
    const message = dsn(await returnPathOf(owner, recipient), [
      { recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);

    const row = await readMessage((await post(other.token, message)).body.id);

    expect(row).toMatchObject({ verified: false, unverified_reason: 'other_account' });
    expect((await entryOf(owner, recipient)).status).toBe(404);
    expect((await entryOf(other, recipient)).status).toBe(404);
  });

  it('when the return path was made for another message than the one the report encloses, then it suppresses nobody', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const returnPath = await returnPathOf(owner, recipient, '<first@sender.example.com>');
    const message = dsn(returnPath, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }], {
      messageId: '<second@sender.example.com>',
    });

    const row = await readMessage((await post(owner.token, message)).body.id);

    expect(row).toMatchObject({ verified: false, unverified_reason: 'other_message' });
    expect((await entryOf(owner, recipient)).status).toBe(404);
  });
});

describe('complaints, automatic replies and other mail', () => {
  it('when an ARF report encloses a message sent with a return path of the account, then the complaint is recorded for its recipient', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();

    await readMessage((await post(owner.token, arf(recipient, await returnPathOf(owner, recipient)))).body.id);

    expect(await eventsOf(owner, recipient)).toMatchObject([{ type: 'complaint', outcome: 'suppressed' }]);
    expect((await entryOf(owner, recipient)).body).toMatchObject({ origin: 'complaint' });
  });

  it('when an ARF report encloses a message without a return path, then it suppresses nobody', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();

    const row = await readMessage((await post(owner.token, arf(recipient, 'news@sender.example.com'))).body.id);

    expect(row).toMatchObject({ verified: false, records: [{ kind: 'complaint', outcome: 'unverified' }] });
    expect((await entryOf(owner, recipient)).status).toBe(404);
  });

  it('when an automatic reply comes to a return path, then it is recorded as an automatic reply and nobody is suppressed', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();

    await readMessage((await post(owner.token, autoReply(await returnPathOf(owner, recipient), recipient))).body.id);

    expect(await eventsOf(owner, recipient)).toMatchObject([{ type: 'bounce', outcome: 'not_suppressed' }]);
    const { rows } = await app.database.db.query({
      text: 'SELECT bounce_category FROM suppression_events WHERE account_id = $1 AND email = $2',
      values: [owner.accountId, recipient],
    });
    expect(rows).toEqual([{ bounce_category: 'auto_reply' }]);
  });

  it('when a person writes to a return path, then the message is recorded as not a report and suppresses nobody', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();

    const row = await readMessage(
      (await post(owner.token, personalMessage(await returnPathOf(owner, recipient)))).body.id,
    );

    expect(row.records).toMatchObject([{ kind: 'not_a_report', outcome: 'recorded' }]);
    expect((await entryOf(owner, recipient)).status).toBe(404);
  });
});

describe('POST /messages/parse', () => {
  it('when a DSN with two recipients is read, then it answers a record each with the classifier’s decision, and writes nothing', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const other = uniqueEmail();
    const message = dsn('bounces@bounces.example.com', [
      { recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
      { recipient: other, status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' },
    ]);

    const answer = await post(owner.token, message, '/messages/parse');

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'list',
      format: 'rfc3464',
      data: [
        {
          object: 'mail_record',
          kind: 'bounce',
          recipient,
          status: '5.1.1',
          reply_code: '550',
          category: 'invalid_address',
          verified: false,
          unverified_reason: 'no_return_path',
        },
        {
          object: 'mail_record',
          kind: 'bounce',
          recipient: other,
          status: '5.2.2',
          category: 'mailbox_unavailable',
          verified: false,
        },
      ],
    });
    const { rows } = await app.database.db.query<{ count: number }>({
      text: 'SELECT count(*)::int AS count FROM mail_messages WHERE records @> $1::jsonb',
      values: [JSON.stringify([{ recipient }])],
    });
    expect(rows).toEqual([{ count: 0 }]);
  });

  it('when the body is empty or larger than MAIL_MAX_MESSAGE_BYTES, then it answers 422 or 413 in the error shape', async () => {
    const owner = await newApiAccount(app);

    const empty = await post(owner.token, Buffer.alloc(0), '/messages/parse');
    const large = await post(owner.token, Buffer.alloc(64 * 1024 + 1, 0x61), '/messages');

    expect(empty).toMatchObject({ status: 422, body: { statusCode: 422, name: 'validation_error' } });
    expect(large).toMatchObject({ status: 413, body: { statusCode: 413, name: 'payload_too_large' } });
  });

  it('when a sending key hands in a message, then it is refused: messages are a full-access key’s', async () => {
    const { account } = await newAccount(app.database.db);
    const sending = await newKey(app.database.db, account, 'sending_access');

    const answer = await post(sending.token, personalMessage('someone@example.org'));

    expect(answer).toMatchObject({ status: 401, body: { name: 'restricted_api_key' } });
  });
});
