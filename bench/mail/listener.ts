/**
 * npm run bench:smtp: messages a second through the SMTP listener (src/mail/listener/), answered
 * 250 and then read into events by the mail worker and the event worker running in this process,
 * against a baseline measured in the same run: the same messages queued by the producer directly.
 * Options: --messages N (BENCH_SMTP_MESSAGES, default 800), --clients N (BENCH_SMTP_CLIENTS,
 * default 16: connections at once, each sending its share of the messages one after another, as an
 * MTA's connection cache does).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { startMailListener } from '../../src/mail/listener/mail-listener.js';
import { createMailProducer } from '../../src/mail/messages/mail-producer.js';
import { createRedis } from '../../src/redis.js';
import { dsn } from '../../test/support/mail-messages.js';
import { openSmtpSession } from '../../test/support/smtp-session.js';
import { startEventWorker } from '../../workers/event-worker.js';
import { startMailWorker } from '../../workers/mail-worker.js';
import { createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, startDeadline } from '../common/deadline.js';
import { parseIntOptions } from '../common/options.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';
import { markdownTable, rate, seconds } from '../common/report.js';

const DOMAIN = 'bounces.bench.example';
const options = parseIntOptions({
  messages: { flag: 'messages', env: 'BENCH_SMTP_MESSAGES', min: 1 },
  clients: { flag: 'clients', env: 'BENCH_SMTP_CLIENTS', min: 1 },
});
const MESSAGES = options.messages ?? 800;
const CLIENTS = options.clients ?? 16;
const env = loadConfig();

/** Distinct DSNs, each saying one new recipient's mailbox does not exist. */
function messages(count: number, label: string): Buffer[] {
  return Array.from({ length: count }, (_, index) =>
    dsn(`bounces@${DOMAIN}`, [
      { recipient: `${label}-${index}@example.org`, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]),
  );
}

/** Runs `work` over `items` with `clients` at once, each taking the next item when done. */
async function inTurns<T>(items: readonly T[], clients: number, work: (lane: number) => (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, items.length) }, async (_, lane) => {
      const each = work(lane);
      while (next < items.length) await each(items[next++] as T);
    }),
  );
}

async function main(): Promise<void> {
  const cleanup = new CleanupStack();
  const deadline = startDeadline(120_000, 'the SMTP listener benchmark');
  const logger = createLogger('silent');
  try {
    const database = await createBenchDatabase(env.DATABASE_URL, logger);
    cleanup.push('drop the database', () => database.drop());
    const db = createDatabase({ url: database.url, poolSize: 10, logger });
    cleanup.push('close the pool', () => db.close());
    const [accountId] = await createAccounts(db, 1);
    const prefix = freshPrefix('smtp');
    const connection = createRedis(env.REDIS_URL, 'worker');
    cleanup.push('close Redis', () => connection.quit());
    cleanup.push('delete the queue keys', () => deletePrefix(connection, prefix));
    const config = loadConfig({
      ...process.env,
      QUEUE_PREFIX: prefix,
      BOUNCE_DOMAINS: DOMAIN,
      // Reports to the domain act for the account without a return path: every message makes an event.
      MAIL_UNSIGNED_DOMAINS: `${DOMAIN}=${accountId}`,
      SMTP_PORT: '0',
      SMTP_MAX_CONNECTIONS: String(CLIENTS + 10),
      SMTP_MESSAGES_PER_MINUTE_PER_CLIENT: String(100 * MESSAGES),
      LOG_LEVEL: 'silent',
    });
    const deps = { db, logger, connection };
    const events = startEventWorker(config, deps);
    const mail = startMailWorker(config, deps);
    cleanup.push('close the workers', () => Promise.all([events.close(), mail.close()]));
    const producer = createMailProducer({ connection: env.REDIS_URL, prefix });
    cleanup.push('close the producer', () => producer.close());
    const listener = await startMailListener({ ...config, SMTP_PORT: 0 }, { producer, logger });
    cleanup.push('close the listener', () => listener.close());

    const read = async () =>
      Number((await db.query<{ n: string }>({ text: 'SELECT count(*) AS n FROM mail_messages' })).rows[0]?.n ?? 0);
    /** Seconds until `count` messages in all have been read into the database. */
    const readBy = async (count: number, started: number) => {
      while ((await read()) < count) await sleep(50);
      return (performance.now() - started) / 1000;
    };

    // A first round, not measured, so that neither path pays for the workers' warming up.
    const WARM_UP = 100;
    await beforeDeadline(
      deadline,
      inTurns(messages(WARM_UP, 'warm-up'), CLIENTS, () => async (raw) => {
        await producer.queue(raw, { source: 'smtp', envelope: { mail_from: null, rcpt_to: [`bounces@${DOMAIN}`] } });
      }),
    );
    await beforeDeadline(deadline, readBy(WARM_UP, performance.now()));

    const direct = messages(MESSAGES, 'direct');
    let started = performance.now();
    await beforeDeadline(
      deadline,
      inTurns(direct, CLIENTS, () => async (raw) => {
        await producer.queue(raw, { source: 'smtp', envelope: { mail_from: null, rcpt_to: [`bounces@${DOMAIN}`] } });
      }),
    );
    const directQueued = (performance.now() - started) / 1000;
    const directRead = await beforeDeadline(deadline, readBy(WARM_UP + MESSAGES, started));

    const smtp = messages(MESSAGES, 'smtp');
    const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => openSmtpSession(listener.port)));
    for (const session of sessions) await session.command('EHLO bench.example');
    let refused = 0;
    started = performance.now();
    await beforeDeadline(
      deadline,
      inTurns(smtp, CLIENTS, (lane) => async (raw) => {
        const session = sessions[lane]!;
        session.write(`MAIL FROM:<>\r\nRCPT TO:<bounces@${DOMAIN}>\r\nDATA\r\n`);
        for (let reply = 0; reply < 3; reply += 1) await session.reply();
        session.write(Buffer.concat([raw, Buffer.from('.\r\n')]));
        if ((await session.reply()).code !== 250) refused += 1;
      }),
    );
    const smtpQueued = (performance.now() - started) / 1000;
    const smtpRead = await beforeDeadline(deadline, readBy(WARM_UP + 2 * MESSAGES, started));
    for (const session of sessions) session.destroy();

    const cpus = os.cpus();
    console.log(`Machine: ${cpus.length} cores, ${cpus[0]?.model ?? 'unknown'}; Node ${process.version}`);
    console.log(`${MESSAGES} DSNs each way, ${CLIENTS} clients at once; ${refused} not answered 250 by the listener\n`);
    console.log(
      markdownTable(
        ['path', 'accepted/s (queued)', 'read/s (to the database)', 'all read after s'],
        [
          [
            'producer.queue (baseline)',
            rate(MESSAGES / directQueued),
            rate(MESSAGES / directRead),
            seconds(directRead * 1000),
          ],
          ['SMTP listener', rate(MESSAGES / smtpQueued), rate(MESSAGES / smtpRead), seconds(smtpRead * 1000)],
        ],
      ),
    );
  } finally {
    deadline.clear();
    const failures = await cleanup.runAll();
    for (const failure of failures) console.error(`cleanup: ${failure}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
