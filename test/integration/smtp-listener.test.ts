import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import fc from 'fast-check';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startMailListener, type MailListener } from '../../src/mail/listener/mail-listener.js';
import { mailJobId, mailJobSchema } from '../../src/mail/messages/mail-job.js';
import { createMailProducer, type MailProducer } from '../../src/mail/messages/mail-producer.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { MAIL_QUEUE } from '../../src/queues.js';
import { startWorkers } from '../../workers/start-workers.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { freePort } from '../support/free-port.js';
import { dsn, personalMessage } from '../support/mail-messages.js';
import { openSmtpSession, REPLY_LINE, type SmtpReply, type SmtpSession } from '../support/smtp-session.js';
import { queueConfig } from '../support/test-config.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { useMailWorkerBeside } from '../support/test-mail-worker.js';
import { eventually } from '../support/test-queue.js';
import { unreachableRedis } from '../support/unreachable.js';

const LIMIT = 64 * 1024;
const SETTINGS = { BOUNCE_DOMAINS: 'bounces.example.com', MAIL_MAX_MESSAGE_BYTES: String(LIMIT) };
const app = useTestApp({ queues: true, env: SETTINGS });
useEventWorkerBeside(app);
useMailWorkerBeside(app, SETTINGS);

const BOUNCES = 'bounces@bounces.example.com';
const stops: (() => Promise<void>)[] = [];
let mailQueue: Queue;
let producer: MailProducer;
let metrics: Metrics;
let listener: MailListener;

/** A listener on a free port beside the file's app and workers, with these settings over the file's. */
async function startListener(
  env: NodeJS.ProcessEnv = {},
  deps: { producer?: MailProducer; metrics?: Metrics } = {},
): Promise<MailListener> {
  const config = queueConfig(app.events.prefix, { ...SETTINGS, SMTP_PORT: '0', ...env });
  const started = await startMailListener(
    { ...config, SMTP_PORT: 0 },
    { producer: deps.producer ?? producer, logger: createLogger('silent'), metrics: deps.metrics },
  );
  stops.push(() => started.close());
  return started;
}

beforeAll(async () => {
  mailQueue = new Queue(MAIL_QUEUE, { connection: app.events.connection, prefix: app.events.prefix });
  producer = createMailProducer({ connection: app.events.redisUrl, prefix: app.events.prefix });
  metrics = createMetrics();
  listener = await startListener({ SMTP_MAX_CONNECTIONS: '250' }, { metrics });
});

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  await producer?.close();
  await mailQueue?.close();
});

/** Every job the file's mail queue holds, whatever its state. */
async function queuedJobs(): Promise<number> {
  const counts = await mailQueue.getJobCounts();
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** The message's bytes as queued, once its job exists; undefined when it was never queued. */
async function queuedBytes(raw: Buffer): Promise<Buffer | undefined> {
  const job = await mailQueue.getJob(mailJobId(createHash('sha256').update(raw).digest('hex')));
  return job === undefined ? undefined : Buffer.from(mailJobSchema.parse(job.data).raw, 'base64');
}

/** The message as DATA carries it: CRLF-ended, each line that starts with a dot given another. */
function dataOf(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  const ended = text.endsWith('\r\n') ? text : `${text}\r\n`;
  return Buffer.from(`${ended.replace(/^\./gm, '..')}.\r\n`, 'latin1');
}

/** One transaction over a session of its own: each command's reply, the last being DATA's end. */
async function deliver(
  port: number,
  raw: Buffer,
  { from = '', to = [BOUNCES], hello = 'EHLO' }: { from?: string; to?: string[]; hello?: string } = {},
): Promise<{ rcpt: SmtpReply[]; data?: SmtpReply; end?: SmtpReply[] }> {
  const session = await openSmtpSession(port);
  try {
    expect((await session.command(`${hello} mta.example.net`)).code).toBe(250);
    expect((await session.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    const rcpt: SmtpReply[] = [];
    for (const recipient of to) rcpt.push(await session.command(`RCPT TO:<${recipient}>`));
    if (!rcpt.some((reply) => reply.code === 250)) return { rcpt };
    const data = await session.command('DATA');
    if (data.code !== 354) return { rcpt, data };
    session.write(dataOf(raw));
    const accepted = rcpt.filter((reply) => reply.code === 250).length;
    const end: SmtpReply[] = [];
    for (let i = 0; i < (hello === 'LHLO' ? accepted : 1); i += 1) end.push(await session.reply());
    await session.command('QUIT');
    return { rcpt, data, end };
  } finally {
    session.destroy();
  }
}

function uniqueMessage(): Buffer {
  return personalMessage(`bounces@bounces.example.com`);
}

describe('a bounce delivered over SMTP', () => {
  it('when an MTA delivers a DSN to a return path made by POST /return-paths, then it answers 250 and the recipient is suppressed', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const made = await owner.api.post('/return-paths', { recipients: [recipient] });
    const returnPath = (made.body as { data: { return_path: string }[] }).data[0]!.return_path;
    const message = dsn(returnPath, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }]);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false });

    const sent = await transport.sendMail({ envelope: { from: '', to: [returnPath] }, raw: message });
    transport.close();

    expect(sent.response).toMatch(/^250 2\.6\.0 Queued as [0-9a-f]{16}$/);
    await eventually(
      async () => (await eventsForEmail(app.database.db, owner.accountId, recipient)).length > 0,
      15_000,
      'the bounce recorded',
    );
    expect(await eventsForEmail(app.database.db, owner.accountId, recipient)).toMatchObject([
      { type: 'bounce', outcome: 'suppressed' },
    ]);
    expect((await owner.api.get(`/suppressions/${encodeURIComponent(recipient)}`)).body).toMatchObject({
      email: recipient,
      origin: 'bounce',
    });
    const job = await mailQueue.getJob(mailJobId(createHash('sha256').update(message).digest('hex')));
    expect(mailJobSchema.parse(job?.data)).toMatchObject({
      source: 'smtp',
      envelope: { mail_from: null, rcpt_to: [returnPath] },
    });
  });

  it('when a recipient is at another domain, then it is refused 550 5.7.1 and nothing is queued', async () => {
    const before = await queuedJobs();
    const refusedBefore = (await metrics.smtpMessages.get()).values.find(
      (value) => value.labels.outcome === 'refused_rcpt',
    );

    const answer = await deliver(listener.port, uniqueMessage(), {
      to: ['someone@example.org', 'x@bounces.example.com.evil.org'],
    });

    expect(answer.rcpt.map((reply) => reply.lines[0])).toEqual([
      expect.stringMatching(/^550 5\.7\.1 Relay access denied/),
      expect.stringMatching(/^550 5\.7\.1 /),
    ]);
    expect(answer.data).toBeUndefined();
    expect(await queuedJobs()).toBe(before);
    const refused = (await metrics.smtpMessages.get()).values.find((value) => value.labels.outcome === 'refused_rcpt');
    expect(refused!.value - (refusedBefore?.value ?? 0)).toBe(2);
  });

  it('when the domain is written in capitals and the local part is a VERP form, then the recipient is accepted', async () => {
    const answer = await deliver(listener.port, uniqueMessage(), { to: ['Bounces+ABC123@BOUNCES.Example.COM'] });

    expect(answer.rcpt[0]!.code).toBe(250);
    expect(answer.end![0]!.code).toBe(250);
  });

  it('when a message is larger than MAIL_MAX_MESSAGE_BYTES, then it is refused 552 5.3.4 and nothing is queued', async () => {
    const before = await queuedJobs();
    const large = Buffer.concat([uniqueMessage(), Buffer.from(`${'x'.repeat(998)}\r\n`.repeat(70))]);

    const answer = await deliver(listener.port, large);
    const declared = await openSmtpSession(listener.port);
    await declared.command('EHLO mta.example.net');
    const sizeRefusal = await declared.command(`MAIL FROM:<> SIZE=${LIMIT + 1}`);
    declared.destroy();

    expect(answer.end![0]!.lines[0]).toMatch(/^552 5\.3\.4 Message too big/);
    expect(sizeRefusal.code).toBe(552);
    expect(await queuedJobs()).toBe(before);
    expect(await queuedBytes(large)).toBeUndefined();
  });

  it('when the EHLO answer is read, then it advertises SIZE, PIPELINING and 8BITMIME, and neither AUTH nor STARTTLS without a certificate', async () => {
    const session = await openSmtpSession(listener.port);
    const ehlo = await session.command('EHLO mta.example.net');
    const auth = await session.command('AUTH PLAIN AGJvYgBzZWNyZXQ=');
    const starttls = await session.command('STARTTLS');
    session.destroy();

    expect(session.greeting.lines[0]).toMatch(/^220 \S+ ESMTP bounces and complaints only$/);
    expect(ehlo.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^250[- ]SIZE ${LIMIT}$`)),
        '250-8BITMIME',
        expect.stringMatching(/^250[- ]PIPELINING$/),
      ]),
    );
    expect(ehlo.text).not.toMatch(/AUTH|STARTTLS/);
    expect(auth.code).toBeGreaterThanOrEqual(500);
    expect(starttls.code).toBeGreaterThanOrEqual(500);
  });
});

describe('when Redis does not take the message', () => {
  it('then the MTA hears 451 4.3.0 and keeps the message to try again', async () => {
    const dead = await unreachableRedis();
    const deadProducer = createMailProducer({ connection: dead, prefix: app.events.prefix, connectTimeoutMs: 1000 });
    const failing = await startListener({}, { producer: deadProducer });
    try {
      const answer = await deliver(failing.port, uniqueMessage());

      expect(answer.end![0]!.lines[0]).toMatch(/^451 4\.3\.0 /);
    } finally {
      await failing.close();
      await deadProducer.close();
      dead.disconnect();
    }
  });
});

describe('clients that misbehave', () => {
  it('when a client drops the connection in the middle of DATA, then nothing is queued and the next client is served', async () => {
    const before = await queuedJobs();
    const session = await openSmtpSession(listener.port);
    await session.command('EHLO mta.example.net');
    await session.command('MAIL FROM:<>');
    await session.command(`RCPT TO:<${BOUNCES}>`);
    expect((await session.command('DATA')).code).toBe(354);
    session.write('Subject: half a message\r\n\r\nThe first lines of a bounce');
    session.destroy();
    await session.ended;

    const next = await deliver(listener.port, uniqueMessage());

    expect(next.end![0]!.code).toBe(250);
    expect(await queuedJobs()).toBe(before + 1);
    await eventually(
      async () =>
        (await metrics.smtpMessages.get()).values.some(
          (value) => value.labels.outcome === 'aborted' && value.value > 0,
        ),
      5000,
      'the aborted message counted',
    );
  });

  it('when a client pipelines its commands, then each gets its reply in order and the message is queued', async () => {
    const message = uniqueMessage();
    const session = await openSmtpSession(listener.port);
    await session.command('EHLO mta.example.net');

    session.write(`MAIL FROM:<>\r\nRCPT TO:<${BOUNCES}>\r\nRCPT TO:<nobody@example.org>\r\nDATA\r\n`);
    const replies = [await session.reply(), await session.reply(), await session.reply(), await session.reply()];
    session.write(Buffer.concat([dataOf(message), Buffer.from('QUIT\r\n')]));
    const end = [await session.reply(), await session.reply()];
    await session.ended;

    expect(replies.map((reply) => reply.code)).toEqual([250, 250, 550, 354]);
    expect(end.map((reply) => reply.code)).toEqual([250, 221]);
    expect(await queuedBytes(message)).toEqual(message);
  });

  it('when an 8BITMIME body holds bytes beyond ASCII and lines that start with a dot, then the bytes queued are the bytes sent', async () => {
    const body = Buffer.concat([
      Buffer.from(`From: postmaster@mx.example.net\r\nTo: ${BOUNCES}\r\nSubject: =?utf-8?q?R=C3=BCckl=C3=A4ufer?=\r\n`),
      Buffer.from('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'),
      Buffer.from(
        `Zustellung fehlgeschlagen: Empfänger unbekannt ${randomUUID()}\r\n.a line with a dot\r\n..two\r\n.\r\n`,
      ),
      Buffer.from([0xe2, 0x82, 0xac, 0xff, 0x80, 0x0d, 0x0a]),
    ]);
    const session = await openSmtpSession(listener.port);
    await session.command('EHLO mta.example.net');
    expect((await session.command('MAIL FROM:<> BODY=8BITMIME')).code).toBe(250);
    await session.command(`RCPT TO:<${BOUNCES}>`);
    await session.command('DATA');
    session.write(dataOf(body));
    const end = await session.reply();
    session.destroy();

    const digest = createHash('sha256').update(body).digest('hex');
    expect(end.lines[0]).toBe(`250 2.6.0 Queued as ${digest.slice(0, 16)}`);
    expect(
      createHash('sha256')
        .update((await queuedBytes(body))!)
        .digest('hex'),
    ).toBe(digest);
  });

  it('when 1,000 clients connect at once, then those past SMTP_MAX_CONNECTIONS hear 421 and never a reset, every message answered 250 is queued, and the refused are served when they come back', async () => {
    const CLIENTS = 1000;
    const AT_ONCE = 500;
    const burstPrefix = `${app.events.prefix}-burst`;
    const burstProducer = createMailProducer({ connection: app.events.redisUrl, prefix: burstPrefix });
    const burstQueue = new Queue(MAIL_QUEUE, { connection: app.events.connection, prefix: burstPrefix });
    const burstMetrics = createMetrics();
    // A listener of its own, queueing where no worker reads: what is measured is the listener alone.
    const burst = await startListener(
      { SMTP_MAX_CONNECTIONS: String(AT_ONCE) },
      { producer: burstProducer, metrics: burstMetrics },
    );
    const held = async () => (await burstMetrics.smtpConnections.get()).values[0]?.value;
    /** A message over a session already greeted; its end-of-DATA reply. */
    const send = async (session: SmtpSession, raw: Buffer) => {
      session.write(`MAIL FROM:<>\r\nRCPT TO:<${BOUNCES}>\r\nDATA\r\n`);
      for (let reply = 0; reply < 3; reply += 1) await session.reply();
      session.write(dataOf(raw));
      const end = await session.reply();
      await session.command('QUIT');
      return { raw, end };
    };
    /** What an accepted client does: a fifth idle until the others are done, a fifth drop before DATA, a fifth during it, the rest send. */
    const behave = async (session: SmtpSession, index: number, othersDone: Promise<unknown>) => {
      await session.command('EHLO mta.example.net');
      if (index % 5 === 0) {
        await othersDone;
        await session.command('QUIT');
        return undefined;
      }
      if (index % 5 === 1) {
        session.write(`MAIL FROM:<>\r\nRCPT TO:<${BOUNCES}>\r\n`);
        session.destroy();
        return undefined;
      }
      if (index % 5 === 2) {
        session.write(`MAIL FROM:<>\r\nRCPT TO:<${BOUNCES}>\r\nDATA\r\n`);
        for (let reply = 0; reply < 3; reply += 1) await session.reply();
        session.write(dataOf(uniqueMessage()).subarray(0, 200));
        session.destroy();
        return undefined;
      }
      return send(session, uniqueMessage());
    };

    try {
      // All at once, each holding its connection until every one has heard its greeting.
      const opened = await Promise.allSettled(Array.from({ length: CLIENTS }, () => openSmtpSession(burst.port)));
      // A reset, or a connection closed without a reply, rejects: there is none.
      expect(opened.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const sessions = opened.map((outcome) => (outcome as PromiseFulfilledResult<SmtpSession>).value);
      const accepted = sessions.filter((session) => session.greeting.code === 220);
      const refused = sessions.filter((session) => session.greeting.code !== 220);
      expect(accepted).toHaveLength(AT_ONCE);
      expect(new Set(refused.map((session) => session.greeting.lines.join('\n')))).toEqual(
        new Set(['421 4.3.2 Too many connections, try again later']),
      );
      await Promise.all(refused.map((session) => session.ended));
      expect((await burstMetrics.smtpConnectionsRefused.get()).values[0]?.value).toBe(CLIENTS - AT_ONCE);

      let othersDone = () => undefined as void;
      const released = new Promise<void>((resolve) => (othersDone = resolve));
      const behaving = accepted.map((session, index) => behave(session, index, released));
      await Promise.all(behaving.filter((_, index) => index % 5 !== 0));
      othersDone();
      const first = (await Promise.all(behaving)).filter((sent) => sent !== undefined);
      await eventually(async () => (await held()) === 0, 10_000, 'every session of the first wave closed');
      // The refused come back, as an MTA does after a 4xx greeting, and each sends its message.
      const again = await Promise.all(refused.map(() => openSmtpSession(burst.port)));
      expect(again.map((session) => session.greeting.code)).toEqual(refused.map(() => 220));
      const second = await Promise.all(
        again.map(async (session) => {
          await session.command('EHLO mta.example.net');
          return send(session, uniqueMessage());
        }),
      );

      const sent = [...first, ...second];
      expect(sent).toHaveLength((AT_ONCE * 2) / 5 + (CLIENTS - AT_ONCE));
      expect(sent.map(({ end }) => end.lines[0])).toEqual(sent.map(() => expect.stringMatching(/^250 2\.6\.0 /)));
      // The queue holds every message answered 250, with its bytes, and nothing else.
      const queued = (await burstQueue.getWaiting(0, -1)).map((job) => mailJobSchema.parse(job.data).raw);
      expect(queued.sort()).toEqual(sent.map(({ raw }) => raw.toString('base64')).sort());
      await eventually(async () => (await held()) === 0, 10_000, 'every session closed');
      expect((await deliver(burst.port, uniqueMessage())).end![0]!.code).toBe(250);
    } finally {
      await burst.close();
      await burstQueue.obliterate({ force: true });
      await burstQueue.close();
      await burstProducer.close();
    }
  });

  it('when more clients connect than SMTP_MAX_CONNECTIONS, then the one past the limit is answered 421 4.3.2 and counted', async () => {
    const counted = createMetrics();
    const small = await startListener({ SMTP_MAX_CONNECTIONS: '2' }, { metrics: counted });
    const held = [await openSmtpSession(small.port), await openSmtpSession(small.port)];

    const third = await openSmtpSession(small.port);
    await third.ended;

    expect(third.greeting.lines).toEqual(['421 4.3.2 Too many connections, try again later']);
    expect((await counted.smtpConnectionsRefused.get()).values[0]?.value).toBe(1);
    for (const session of held) session.destroy();
  });

  it('when a client begins more messages a minute than SMTP_MESSAGES_PER_MINUTE_PER_CLIENT, then MAIL FROM is answered 450 4.7.1', async () => {
    const limited = await startListener({ SMTP_MESSAGES_PER_MINUTE_PER_CLIENT: '2' });
    const session = await openSmtpSession(limited.port);
    await session.command('EHLO mta.example.net');

    const first = await session.command('MAIL FROM:<>');
    await session.command('RSET');
    const second = await session.command('MAIL FROM:<>');
    await session.command('RSET');
    const third = await session.command('MAIL FROM:<>');
    session.destroy();

    expect([first.code, second.code]).toEqual([250, 250]);
    expect(third.lines[0]).toMatch(/^450 4\.7\.1 /);
  });
});

describe('LMTP', () => {
  it('when an MTA speaks LMTP with two recipients, then LHLO is answered and each accepted recipient gets its own 250', async () => {
    const lmtp = await startListener({ SMTP_PROTOCOL: 'lmtp' });
    const message = uniqueMessage();
    const ehlo = await openSmtpSession(lmtp.port);
    const refusedEhlo = await ehlo.command('EHLO mta.example.net');
    ehlo.destroy();

    const answer = await deliver(lmtp.port, message, {
      hello: 'LHLO',
      to: [BOUNCES, 'fbl@bounces.example.com', 'other@example.org'],
    });

    expect(refusedEhlo.code).toBeGreaterThanOrEqual(500);
    expect(answer.rcpt.map((reply) => reply.code)).toEqual([250, 250, 550]);
    expect(answer.end!.map((reply) => reply.lines[0])).toEqual([
      expect.stringMatching(/^250 2\.6\.0 Queued as /),
      expect.stringMatching(/^250 2\.6\.0 Queued as /),
    ]);
    const job = await mailQueue.getJob(mailJobId(createHash('sha256').update(message).digest('hex')));
    expect(mailJobSchema.parse(job?.data)).toMatchObject({
      source: 'lmtp',
      envelope: { mail_from: null, rcpt_to: [BOUNCES, 'fbl@bounces.example.com'] },
    });
  });
});

describe('STARTTLS', () => {
  it('when SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE are given, then STARTTLS is offered and a message arrives over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smtp-tls-'));
    try {
      const cert = join(dir, 'cert.pem');
      const key = join(dir, 'key.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
      const secured = await startListener({ SMTP_TLS_CERT_FILE: cert, SMTP_TLS_KEY_FILE: key });
      const session = await openSmtpSession(secured.port);
      const ehlo = await session.command('EHLO mta.example.net');
      session.destroy();
      const message = uniqueMessage();
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: secured.port,
        secure: false,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      });

      const sent = await transport.sendMail({ envelope: { from: '', to: [BOUNCES] }, raw: message });
      transport.close();

      expect(ehlo.lines).toContain('250-STARTTLS');
      expect(sent.response).toMatch(/^250 2\.6\.0 /);
      expect(await queuedBytes(message)).toEqual(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stopping', () => {
  it('when the listener stops, then an idle session hears 421 at once, a message in DATA is still answered 250, and no new connection is taken', async () => {
    const stopping = await startListener();
    const idle = await openSmtpSession(stopping.port);
    await idle.command('EHLO mta.example.net');
    const busy = await openSmtpSession(stopping.port);
    await busy.command('EHLO mta.example.net');
    await busy.command('MAIL FROM:<>');
    await busy.command(`RCPT TO:<${BOUNCES}>`);
    await busy.command('DATA');
    const message = uniqueMessage();
    const data = dataOf(message);
    busy.write(data.subarray(0, 40));

    const closed = stopping.close();
    const idleReply = await idle.reply();
    busy.write(data.subarray(40));
    const busyReply = await busy.reply();
    const farewell = await busy.reply();
    await closed;

    expect(idleReply.lines[0]).toMatch(/^421 4\.3\.2 /);
    expect(busyReply.code).toBe(250);
    expect(farewell.code).toBe(421);
    expect(await queuedBytes(message)).toEqual(message);
    await expect(openSmtpSession(stopping.port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the workers process', () => {
  it('when SMTP_PORT is set, then the process that runs the events workers takes mail on it, and stops when closed', async () => {
    const port = await freePort();
    const config = loadConfig({
      ...SETTINGS,
      DATABASE_URL: app.database.url,
      REDIS_URL: app.events.redisUrl,
      QUEUE_PREFIX: app.events.prefix,
      WORKERS: 'events',
      SMTP_PORT: String(port),
    });
    const running = await startWorkers({
      config,
      logger: createLogger('silent'),
      db: app.database.db,
      metrics: createMetrics(),
    });
    const message = uniqueMessage();

    const answer = await deliver(port, message).finally(() => running.close());

    expect(answer.end![0]!.code).toBe(250);
    expect(await queuedBytes(message)).toEqual(message);
    await expect(openSmtpSession(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('hostile input', () => {
  const VERBS = [
    'EHLO',
    'HELO',
    'MAIL FROM:',
    'RCPT TO:',
    'DATA',
    'RSET',
    'NOOP',
    'VRFY',
    'HELP',
    'BDAT',
    'STARTTLS',
    'AUTH',
    'XCLIENT',
    'QUIT',
    '',
  ];
  const line = fc
    .oneof(
      fc.tuple(fc.constantFrom(...VERBS), fc.string({ maxLength: 200 })).map(([verb, rest]) => `${verb}${rest}`),
      fc.constantFrom('EHLO fuzz.example', 'MAIL FROM:<>', `RCPT TO:<${BOUNCES}>`, 'RCPT TO:<a@example.org>', 'DATA'),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    )
    .map((text) => text.replace(/[\r\n]/g, ' '));
  const body = fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes));

  it('when random and mutated command lines and DATA bodies arrive (fixed seed), then every reply is a valid reply line and the listener keeps serving', async () => {
    let session: SmtpSession | undefined;
    let replies = 0;
    const check = (reply: SmtpReply) => {
      replies += 1;
      for (const text of reply.lines) expect(text).toMatch(REPLY_LINE);
    };

    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 4 }), body, async (lines, content) => {
        for (const text of lines) {
          if (session === undefined || session.closed) {
            session = await openSmtpSession(listener.port);
            check(session.greeting);
          }
          const reply = await session.command(Buffer.from(text, 'latin1')).catch(() => undefined);
          if (reply === undefined) {
            // Only a reply that closes the session may be the last one.
            expect(session.closed).toBe(true);
            continue;
          }
          check(reply);
          if (reply.code === 354) {
            session.write(dataOf(content));
            check(await session.reply());
          }
          if (reply.code === 221 || reply.code === 421) await session.ended;
        }
      }),
      { seed: 20261127, numRuns: 300 },
    );
    session?.destroy();

    expect(replies).toBeGreaterThan(300);
    expect((await deliver(listener.port, uniqueMessage())).end![0]!.code).toBe(250);
  });
});
