import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReturnPath } from '../../src/client/return-path.js';
import { createLogger } from '../../src/logger.js';
import { startMailListener, type MailListener } from '../../src/mail/listener/mail-listener.js';
import { createMailProducer, type MailProducer } from '../../src/mail/messages/mail-producer.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { dsn } from '../support/mail-messages.js';
import { startPostfix, type RunningPostfix } from '../support/postfix.js';
import { queueConfig } from '../support/test-config.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { useMailWorkerBeside } from '../support/test-mail-worker.js';
import { eventually } from '../support/test-queue.js';

/** Postfix sends the first domain to the listener over SMTP, the second to another over LMTP. */
const SMTP_DOMAIN = 'bounces.example.com';
const LMTP_DOMAIN = 'lmtp-bounces.example.com';
const SETTINGS = { BOUNCE_DOMAINS: `${SMTP_DOMAIN},${LMTP_DOMAIN}` };
const app = useTestApp({ queues: true, env: SETTINGS });
useEventWorkerBeside(app);
useMailWorkerBeside(app, SETTINGS);

/** How long a bounce may take to come through: Postfix, the listener, both workers, on a busy machine. */
const BOUND_MS = 30_000;

let producer: MailProducer;
const listeners: MailListener[] = [];
const ports = { smtp: 0, lmtp: 0 };
let postfix: RunningPostfix;

async function startListener(protocol: 'smtp' | 'lmtp'): Promise<MailListener> {
  const config = queueConfig(app.events.prefix, { ...SETTINGS, SMTP_PORT: '0', SMTP_PROTOCOL: protocol });
  const listener = await startMailListener({ ...config, SMTP_PORT: 0 }, { producer, logger: createLogger('silent') });
  listeners.push(listener);
  return listener;
}

beforeAll(async () => {
  producer = createMailProducer({ connection: app.events.redisUrl, prefix: app.events.prefix });
  ports.smtp = (await startListener('smtp')).port;
  ports.lmtp = (await startListener('lmtp')).port;
  postfix = await startPostfix([
    { domain: SMTP_DOMAIN, protocol: 'smtp', port: ports.smtp },
    { domain: LMTP_DOMAIN, protocol: 'lmtp', port: ports.lmtp },
  ]);
});

afterAll(async () => {
  await postfix?.stop();
  await Promise.all(listeners.map((listener) => listener.close()));
  await producer?.close();
});

/** A message of the sending platform's to `recipient`, as it hands it to its MTA. */
function newsletter(recipient: string, messageId: string): Buffer {
  return Buffer.from(
    [
      'From: news@sender.example.com',
      `To: ${recipient}`,
      'Subject: Our news',
      `Message-ID: ${messageId}`,
      'Date: Fri, 27 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Hello.',
      '',
    ].join('\r\n'),
  );
}

/** Hands a message to Postfix's smtpd with this envelope; resolves on its `250`. */
async function sendThroughPostfix(raw: Buffer, envelope: { from: string; to: string }): Promise<string> {
  const transport = nodemailer.createTransport({ host: postfix.host, port: postfix.port, secure: false });
  try {
    const sent = await transport.sendMail({ envelope: { from: envelope.from, to: [envelope.to] }, raw });
    return sent.response;
  } finally {
    transport.close();
  }
}

/** The return path of a message to `recipient`, made locally from the account's secret as a sender does. */
async function returnPathOf(owner: ApiAccount, recipient: string, messageId: string, domain: string): Promise<string> {
  const answer = await owner.api.get<{ id: string; secret: string; local_part: string; domains: string[] }>(
    '/return-paths/secret',
  );
  expect(answer.status).toBe(200);
  expect(answer.body.domains).toContain(domain);
  return makeReturnPath(answer.body, { recipient, messageId, localPart: answer.body.local_part, domain });
}

interface ReadMessage {
  source: string;
  verified: boolean;
  unverified_reason: string | null;
  format: string;
}

/** The mail worker's record of the messages whose records name `recipient`. */
async function messagesNaming(recipient: string): Promise<ReadMessage[]> {
  const { rows } = await app.database.db.query<ReadMessage>({
    text: `SELECT source, verified, unverified_reason, format FROM mail_messages WHERE records @> $1::jsonb`,
    values: [JSON.stringify([{ recipient }])],
  });
  return rows;
}

/** Waits until the mail worker has read a message naming `recipient`, with Postfix's log in the error. */
async function readMessageNaming(recipient: string): Promise<ReadMessage> {
  await eventually(async () => (await messagesNaming(recipient)).length > 0, BOUND_MS, 'the DSN read').catch(
    async (error: Error) => {
      throw new Error(`${error.message}; Postfix's log:\n${await postfix.log()}`);
    },
  );
  const [message] = await messagesNaming(recipient);
  return message!;
}

async function suppressedAnywhere(email: string): Promise<boolean> {
  const { rows } = await app.database.db.query({
    text: 'SELECT 1 FROM suppression_events WHERE email = $1',
    values: [email],
  });
  return rows.length > 0;
}

describe.each([
  { protocol: 'smtp', domain: SMTP_DOMAIN },
  { protocol: 'lmtp', domain: LMTP_DOMAIN },
] as const)('a real Postfix DSN delivered to the listener over $protocol', ({ protocol, domain }) => {
  it('when a message from a VERP return path goes to an unknown user of Postfix, then Postfix bounces it to the listener and the recipient is suppressed, by mail', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail(postfix.localDomain);
    const messageId = `<${randomUUID()}@sender.example.com>`;
    const returnPath = await returnPathOf(owner, recipient, messageId, domain);
    const path = `/suppressions/${encodeURIComponent(recipient)}`;

    const started = performance.now();
    expect(await sendThroughPostfix(newsletter(recipient, messageId), { from: returnPath, to: recipient })).toMatch(
      /^250 /,
    );
    await eventually(async () => (await owner.api.get(path)).status === 200, BOUND_MS, 'the suppression').catch(
      async (error: Error) => {
        throw new Error(`${error.message}; Postfix's log:\n${await postfix.log()}`);
      },
    );
    const elapsed = performance.now() - started;
    console.info(`postfix DSN over ${protocol}: recipient suppressed ${Math.round(elapsed)} ms after the send`);

    const log = (await postfix.log()).split('\n');
    const bounced = log.find((line) => line.includes(`to=<${recipient}>, relay=local,`));
    expect(bounced).toMatch(/dsn=5\.1\.1, status=bounced \(unknown user: /);
    const relayed = log.find((line) =>
      line.includes(`to=<${returnPath}>, relay=127.0.0.1[127.0.0.1]:${ports[protocol]},`),
    );
    expect(relayed).toMatch(/status=sent \(250 2\.6\.0 Queued as [0-9a-f]{16}\)$/);
    expect((await owner.api.get(path)).body).toMatchObject({ email: recipient, origin: 'bounce' });
    const history = await owner.api.get<{ data: { type: string; outcome: string; bounce: Record<string, unknown> }[] }>(
      `${path}/events`,
    );
    expect(history.body.data).toMatchObject([
      {
        type: 'bounce',
        outcome: 'suppressed',
        provider_message_id: messageId,
        bounce: {
          status: '5.1.1',
          provider: expect.stringMatching(/^mail:/),
          classification: { reason: 'user_unknown' },
        },
      },
    ]);
    expect(await readMessageNaming(recipient)).toMatchObject({ source: protocol, verified: true });
  });

  it('when the return path of a message Postfix bounces carries a token that does not verify, then its DSN reaches the listener and suppresses nothing', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail(postfix.localDomain);
    const messageId = `<${randomUUID()}@sender.example.com>`;
    const made = await returnPathOf(owner, recipient, messageId, domain);
    // A character of the signature that holds no padding bits (the last may), so the token still reads.
    const changed = made.indexOf('@') - 2;
    const forged = `${made.slice(0, changed)}${made[changed] === 'a' ? 'b' : 'a'}${made.slice(changed + 1)}`;

    await sendThroughPostfix(newsletter(recipient, messageId), { from: forged, to: recipient });

    expect(await readMessageNaming(recipient)).toMatchObject({
      source: protocol,
      verified: false,
      unverified_reason: 'bad_signature',
    });
    expect(await eventsForEmail(app.database.db, owner.accountId, recipient)).toEqual([]);
    expect(await suppressedAnywhere(recipient)).toBe(false);
  });

  it('when someone mails Postfix a forged DSN to the bounce domain without a token, then Postfix relays it to the listener and it suppresses nothing', async () => {
    const victim = uniqueEmail();
    const mailbox = `bounces@${domain}`;
    const forged = dsn(mailbox, [{ recipient: victim, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }]);

    await sendThroughPostfix(forged, { from: '', to: mailbox });

    expect(await readMessageNaming(victim)).toMatchObject({
      source: protocol,
      verified: false,
      unverified_reason: 'no_return_path',
    });
    expect(await suppressedAnywhere(victim)).toBe(false);
  });
});
