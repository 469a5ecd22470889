import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startImapPoller, type ImapPoller } from '../../src/mail/mailbox/imap-poller.js';
import { imapMailbox } from '../../src/mail/mailbox/imap-mailbox.js';
import { mailDigest } from '../../src/mail/messages/mail-job.js';
import { createMailProducer, type MailProducer } from '../../src/mail/messages/mail-producer.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { startDovecot, type RunningDovecot } from '../support/dovecot.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { dsn } from '../support/mail-messages.js';
import { startTcpProxy, targetOf, urlThrough, type TcpProxy } from '../support/tcp-proxy.js';
import { queueConfig } from '../support/test-config.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { useMailWorkerBeside } from '../support/test-mail-worker.js';
import { eventually } from '../support/test-queue.js';

const SETTINGS = { BOUNCE_DOMAINS: 'bounces.example.com', MAIL_MAX_MESSAGE_BYTES: String(64 * 1024) };
const app = useTestApp({ queues: true, env: SETTINGS });
useEventWorkerBeside(app);
useMailWorkerBeside(app, SETTINGS);

let dovecot: RunningDovecot;
const closing: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  dovecot = await startDovecot();
});
afterEach(async () => {
  for (const open of closing.splice(0).reverse()) await open.close();
});
afterAll(async () => {
  await dovecot?.stop();
});

interface RunningPoller extends ImapPoller {
  metrics: Metrics;
  key: string;
}

/** The service's poller on a folder of the test's Dovecot, queueing on the file's mail queue (through `mail`). */
function startPoller(folder: string, after: string, mail?: MailProducer, through?: TcpProxy): RunningPoller {
  const config = queueConfig(app.events.prefix, {
    ...SETTINGS,
    IMAP_URL: through ? urlThrough(through, dovecot.url(folder)) : dovecot.url(folder),
    IMAP_PASSWORD: dovecot.password,
    IMAP_POLL_SECONDS: '1',
    IMAP_AFTER: after,
  });
  const producer = mail ?? createMailProducer({ connection: app.events.connection, prefix: app.events.prefix });
  const metrics = createMetrics();
  const poller = startImapPoller(config, {
    db: app.database.db,
    logger: createLogger('silent'),
    metrics,
    queue: (raw, how) => producer.queue(raw, how),
  });
  if (poller === null) throw new Error('IMAP_URL was not read');
  const running = {
    metrics,
    key: imapMailbox(config)!.key,
    close: async () => {
      await poller.close();
      if (!mail) await producer.close();
    },
  };
  closing.push(running);
  return running;
}

async function counted(poller: RunningPoller, outcome: string): Promise<number> {
  const metric = await poller.metrics.imapMessages.get();
  return metric.values.find((value) => value.labels['outcome'] === outcome)?.value ?? 0;
}

/** What `imap_connected` says of the poller's one mailbox, or null before it says anything. */
async function connectedGauge(poller: RunningPoller): Promise<number | null> {
  const metric = await poller.metrics.imapConnected.get();
  return metric.values[0]?.value ?? null;
}

async function returnPathOf(owner: ApiAccount, recipient: string): Promise<string> {
  const answer = await owner.api.post('/return-paths', { recipients: [recipient] });
  expect(answer.status).toBe(200);
  return (answer.body as { data: { return_path: string }[] }).data[0]!.return_path;
}

async function bounceFor(owner: ApiAccount): Promise<{ recipient: string; message: Buffer }> {
  const recipient = uniqueEmail();
  const message = dsn(await returnPathOf(owner, recipient), [
    { recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
  ]);
  return { recipient, message };
}

/** The messages a folder's maildir holds. */
async function filesIn(folder: string): Promise<number> {
  const root = dovecot.maildir(folder);
  const names = await Promise.all(['new', 'cur'].map((sub) => readdir(path.join(root, sub)).catch((): string[] => [])));
  return names.flat().length;
}

async function checkpointOf(key: string): Promise<{ uid_validity: string; last_uid: string } | undefined> {
  const { rows } = await app.database.db.query<{ uid_validity: string; last_uid: string }>({
    text: 'SELECT uid_validity, last_uid FROM mailbox_checkpoints WHERE mailbox = $1',
    values: [key],
  });
  return rows[0];
}

async function eventsOf(owner: ApiAccount, email: string, count = 1) {
  await eventually(
    async () => (await eventsForEmail(app.database.db, owner.accountId, email)).length >= count,
    15_000,
    `${count} events of ${email}`,
  );
  return eventsForEmail(app.database.db, owner.accountId, email);
}

async function mailMessageRows(message: Buffer): Promise<number> {
  const { rows } = await app.database.db.query({
    text: 'SELECT 1 FROM mail_messages WHERE digest = $1',
    values: [Buffer.from(mailDigest(message), 'hex')],
  });
  return rows.length;
}

/** An IMAP client of the test's own, as a person's mail program. */
async function mailProgram(): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await client.connect();
  closing.push({ close: () => client.logout() });
  return client;
}

describe('a mailbox that bounces land in', () => {
  it('when a DSN to a return path of an account arrives, then it is queued, moved to the processed folder and its recipient suppressed', async () => {
    const owner = await newApiAccount(app);
    const { recipient, message } = await bounceFor(owner);
    await dovecot.deliver(message, 'arrivals');

    const poller = startPoller('arrivals', 'move:Processed');

    expect(await eventsOf(owner, recipient)).toMatchObject([{ type: 'bounce', outcome: 'suppressed' }]);
    expect((await owner.api.get(`/suppressions/${encodeURIComponent(recipient)}`)).body).toMatchObject({
      email: recipient,
      origin: 'bounce',
    });
    // A move shows the message in its new folder a moment before it leaves the old one.
    await eventually(
      async () => (await filesIn('Processed')) === 1 && (await filesIn('arrivals')) === 0,
      15_000,
      'the message moved',
    );
    expect(await counted(poller, 'queued')).toBe(1);
  });

  it('when a message is larger than MAIL_MAX_MESSAGE_BYTES, then it is flagged and left where it is, counted and not queued', async () => {
    const owner = await newApiAccount(app);
    const { message } = await bounceFor(owner);
    const large = Buffer.concat([message, Buffer.alloc(70 * 1024, 'x')]);
    const small = await bounceFor(owner);
    await dovecot.deliver(large, 'large');
    await dovecot.deliver(small.message, 'large');

    const poller = startPoller('large', 'move:LargeDone');

    await eventsOf(owner, small.recipient);
    expect(await counted(poller, 'too_large')).toBe(1);
    expect(await counted(poller, 'queued')).toBe(1);
    expect(await filesIn('large')).toBe(1);
    expect(await mailMessageRows(large)).toBe(0);
    const client = await mailProgram();
    const lock = await client.getMailboxLock('large');
    try {
      const [left] = await client.fetchAll('1:*', { flags: true, size: true });
      expect([...(left?.flags ?? [])]).toContain('\\Flagged');
    } finally {
      lock.release();
    }
  });
});

describe('the connection', () => {
  it('when the connection to the IMAP server is cut, then imap_connected shows it, and the poller connects again and takes what arrived meanwhile', async () => {
    const owner = await newApiAccount(app);
    const proxy = await startTcpProxy({ host: dovecot.host, port: dovecot.port });
    closing.push(proxy);
    const first = await bounceFor(owner);
    await dovecot.deliver(first.message, 'dropped');
    const poller = startPoller('dropped', 'move:DroppedDone', undefined, proxy);
    await eventsOf(owner, first.recipient);
    const connections = proxy.forwarded;
    expect(await connectedGauge(poller)).toBe(1);

    proxy.stop();
    const second = await bounceFor(owner);
    await dovecot.deliver(second.message, 'dropped');
    await eventually(() => Promise.resolve(proxy.refused > 0), 15_000, 'a refused reconnection');
    expect(await connectedGauge(poller)).toBe(0);
    proxy.start();

    await eventsOf(owner, second.recipient);
    expect(await connectedGauge(poller)).toBe(1);
    expect(proxy.forwarded).toBeGreaterThan(connections);
    await eventually(async () => (await filesIn('DroppedDone')) === 2, 15_000, 'both messages moved');
    expect(await counted(poller, 'queued')).toBe(2);
  });
});

describe('the checkpoint', () => {
  it('when the poller starts again, then it does not queue again what it checkpointed', async () => {
    const owner = await newApiAccount(app);
    const first = await bounceFor(owner);
    await dovecot.deliver(first.message, 'kept');
    const before = startPoller('kept', 'keep');
    await eventsOf(owner, first.recipient);
    await eventually(async () => (await checkpointOf(before.key))?.last_uid === '1', 15_000, 'the checkpoint');
    await before.close();
    closing.splice(closing.indexOf(before), 1);

    const second = await bounceFor(owner);
    await dovecot.deliver(second.message, 'kept');
    const after = startPoller('kept', 'keep');

    await eventsOf(owner, second.recipient);
    await eventually(async () => (await checkpointOf(after.key))?.last_uid === '2', 15_000, 'the checkpoint');
    expect(await counted(after, 'queued')).toBe(1);
    expect(await filesIn('kept')).toBe(2);
  });

  it('when Redis is unreachable, then nothing is moved or checkpointed, and the message is taken once Redis is back', async () => {
    const owner = await newApiAccount(app);
    const { recipient, message } = await bounceFor(owner);
    const proxy: TcpProxy = await startTcpProxy(targetOf(inject('redisUrl'), 6379));
    closing.push(proxy);
    proxy.stop();
    const mail = createMailProducer({
      connection: urlThrough(proxy, inject('redisUrl')),
      connectTimeoutMs: 500,
      prefix: app.events.prefix,
    });
    closing.push(mail);
    await dovecot.deliver(message, 'outage');

    const poller = startPoller('outage', 'move:OutageDone', mail);
    await eventually(async () => (await counted(poller, 'queue_failed')) >= 2, 20_000, 'two failed polls');

    expect(await filesIn('outage')).toBe(1);
    expect(await filesIn('OutageDone')).toBe(0);
    expect(await checkpointOf(poller.key)).toBeUndefined();

    proxy.start();

    expect(await eventsOf(owner, recipient)).toMatchObject([{ outcome: 'suppressed' }]);
    // A move shows the message in its new folder a moment before it leaves the old one.
    await eventually(
      async () => (await filesIn('OutageDone')) === 1 && (await filesIn('outage')) === 0,
      15_000,
      'the message moved',
    );
    await eventually(async () => (await checkpointOf(poller.key))?.last_uid === '1', 15_000, 'the checkpoint');
  });

  it('when the folder’s UIDVALIDITY changes, then the poller reads it again and applies nothing twice', async () => {
    const owner = await newApiAccount(app);
    const first = await bounceFor(owner);
    await dovecot.deliver(first.message, 'renewed');
    const poller = startPoller('renewed', 'keep');
    await eventsOf(owner, first.recipient);
    await eventually(async () => (await checkpointOf(poller.key))?.last_uid === '1', 15_000, 'the checkpoint');
    const before = (await checkpointOf(poller.key))!.uid_validity;

    // The folder made anew, as an administrator restoring it would: the same message, and a new one.
    await poller.close();
    closing.splice(closing.indexOf(poller), 1);
    const client = await mailProgram();
    await client.mailboxDelete('renewed');
    await client.mailboxCreate('renewed');
    const second = await bounceFor(owner);
    await client.append('renewed', first.message);
    await client.append('renewed', second.message);
    const again = startPoller('renewed', 'keep');

    await eventsOf(owner, second.recipient);
    await eventually(async () => (await counted(again, 'queued')) === 2, 15_000, 'both messages queued');
    const checkpoint = await checkpointOf(again.key);
    expect(checkpoint?.uid_validity).not.toBe(before);
    expect(checkpoint?.last_uid).toBe('2');
    expect(await eventsForEmail(app.database.db, owner.accountId, first.recipient)).toHaveLength(1);
    expect(await mailMessageRows(first.message)).toBe(1);
  });
});
