import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startMailListener, type MailListener } from '../../src/mail/listener/mail-listener.js';
import { mailDigest } from '../../src/mail/messages/mail-job.js';
import { createMailProducer, type MailProducer } from '../../src/mail/messages/mail-producer.js';
import { EVENTS_QUEUE, MAIL_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail } from '../support/emails.js';
import { dsn } from '../support/mail-messages.js';
import { startMailWorkerProcess, type MailWorkerProcess } from '../support/mail-worker-process.js';
import { openSmtpSession } from '../support/smtp-session.js';
import { useTestDatabase } from '../support/test-database.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';

const DOMAIN = 'bounces.kill.example';
const MESSAGES = 50;
const database = useTestDatabase();
let events: TestQueue;
let mailQueue: Queue;
let producer: MailProducer;
let listener: MailListener;
let settings: Record<string, string>;
const children: MailWorkerProcess[] = [];

beforeAll(async () => {
  events = await createTestQueue(EVENTS_QUEUE);
  mailQueue = new Queue(MAIL_QUEUE, { connection: events.connection, prefix: events.prefix });
  const { accountId } = await newAccount(database.db);
  // Reports to the domain act for the account without a return path: each DSN is one event.
  settings = { BOUNCE_DOMAINS: DOMAIN, MAIL_UNSIGNED_DOMAINS: `${DOMAIN}=${accountId}` };
  producer = createMailProducer({ connection: events.redisUrl, prefix: events.prefix });
  const config = loadConfig({ ...settings, QUEUE_PREFIX: events.prefix, SMTP_PORT: '0', LOG_LEVEL: 'silent' });
  listener = await startMailListener({ ...config, SMTP_PORT: 0 }, { producer, logger: createLogger('silent') });
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await listener?.close();
  await producer?.close();
  await mailQueue?.obliterate({ force: true });
  await mailQueue?.close();
  await events?.cleanup();
});

/** The real event and mail workers in a process of their own, taking a killed one's jobs a second after. */
async function startWorkers(): Promise<MailWorkerProcess> {
  const child = await startMailWorkerProcess({
    databaseUrl: database.url,
    redisUrl: events.redisUrl,
    prefix: events.prefix,
    env: settings,
    lockDurationMs: 1000,
  });
  children.push(child);
  return child;
}

/** Sends the messages over `lanes` SMTP sessions; the digests of those answered 250. */
async function sendOverSmtp(messages: readonly Buffer[], lanes: number): Promise<string[]> {
  const accepted: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      const session = await openSmtpSession(listener.port);
      await session.command('EHLO mta.example.net');
      while (next < messages.length) {
        const raw = messages[next++]!;
        session.write(`MAIL FROM:<>\r\nRCPT TO:<bounces@${DOMAIN}>\r\nDATA\r\n`);
        for (let reply = 0; reply < 3; reply += 1) await session.reply();
        session.write(Buffer.concat([raw, Buffer.from('.\r\n')]));
        if ((await session.reply()).code === 250) accepted.push(mailDigest(raw));
      }
      await session.command('QUIT');
    }),
  );
  return accepted;
}

/** Relations whose lock a statement of the workers waits for. */
async function waitedFor(): Promise<string[]> {
  const { rows } = await database.db.query<{ relation: string }>({
    text: `SELECT DISTINCT l.relation::regclass::text AS relation FROM pg_locks l
           JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE NOT l.granted AND a.datname = current_database() AND l.relation IS NOT NULL`,
  });
  return rows.map((row) => row.relation).sort();
}

describe('a worker process killed in the middle of its jobs', () => {
  it('when the process running the mail and event workers is killed with SIGKILL while its writes wait in the database, and started again, then every message answered 250 is applied once', async () => {
    const recipients = Array.from({ length: MESSAGES }, () => uniqueEmail());
    const messages = recipients.map((recipient) =>
      dsn(`bounces@${DOMAIN}`, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }]),
    );
    const first = await startWorkers();
    // The tables both workers write to are held, so the kill finds the mail worker between queueing
    // a message's events and recording it, and the event worker inside its batch's statement.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE mail_messages, event_receipts IN SHARE ROW EXCLUSIVE MODE');

    const accepted = await sendOverSmtp(messages, 5);
    await eventually(
      async () => (await waitedFor()).join() === 'event_receipts,mail_messages',
      15_000,
      'both workers waiting on the database',
    );
    await first.kill();
    const held = { mail: await mailQueue.getActiveCount(), events: await events.queue.getActiveCount() };
    await holder.query('ROLLBACK');
    await holder.end();
    await startWorkers();

    const appliedIds = async () =>
      (
        await database.db.query<{ event_id: string }>({
          text: `SELECT event_id FROM event_receipts WHERE event_id LIKE 'mail:%'`,
        })
      ).rows.map((row) => row.event_id);
    await eventually(async () => (await appliedIds()).length >= accepted.length, 30_000, 'every message applied');

    expect(accepted).toHaveLength(MESSAGES);
    expect(held.mail).toBeGreaterThan(0);
    expect(held.events).toBeGreaterThan(0);
    expect((await appliedIds()).sort()).toEqual(accepted.map((digest) => `mail:${digest}:0`).sort());
    const { rows } = await database.db.query<{ email: string; n: number }>({
      text: `SELECT email, count(*)::int AS n FROM suppression_events WHERE email = ANY($1) GROUP BY email`,
      values: [recipients],
    });
    expect(rows.map((row) => row.n)).toEqual(recipients.map(() => 1));
    const suppressed = await database.db.query<{ n: number }>({
      text: `SELECT count(*)::int AS n FROM suppressions WHERE email = ANY($1) AND origin = 'bounce'`,
      values: [recipients],
    });
    expect(suppressed.rows[0]?.n).toBe(MESSAGES);
    await eventually(async () => (await mailQueue.getCompletedCount()) === MESSAGES, 10_000, 'every mail job done');
    expect(await mailQueue.getFailedCount()).toBe(0);
    expect(await events.queue.getFailedCount()).toBe(0);
  });
});
