import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailDigest } from '../../src/mail/messages/mail-job.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { autoReply, dsn, personalMessage } from '../support/mail-messages.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { useEventWorkerBeside } from '../support/test-event-worker.js';
import { useMailWorkerBeside } from '../support/test-mail-worker.js';
import { eventually } from '../support/test-queue.js';
import { closedPort } from '../support/unreachable.js';

const SETTINGS = { BOUNCE_DOMAINS: 'bounces.example.com' };
const app = useTestApp({ queues: true, env: SETTINGS });
useEventWorkerBeside(app);
useMailWorkerBeside(app, SETTINGS);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sl-cli-mail-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ingest(target: string, account: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(['mail', 'ingest', target, '--account', account], {
    DATABASE_URL: app.database.url,
    REDIS_URL: app.events.redisUrl,
    QUEUE_PREFIX: app.events.prefix,
    ...SETTINGS,
    ...env,
  });
}

async function bounceFor(owner: ApiAccount): Promise<{ recipient: string; message: Buffer }> {
  const recipient = uniqueEmail();
  const answer = await owner.api.post('/return-paths', { recipients: [recipient] });
  expect(answer.status).toBe(200);
  const returnPath = (answer.body as { data: { return_path: string }[] }).data[0]!.return_path;
  const message = dsn(returnPath, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }]);
  return { recipient, message };
}

/** An mbox archive of the messages, as a mail program writes one (CRLF kept, a blank line after each). */
function mbox(messages: readonly Buffer[]): Buffer {
  return Buffer.concat(
    messages.flatMap((message) => [
      Buffer.from('From MAILER-DAEMON Fri Nov 27 10:00:00 2026\r\n'),
      message,
      Buffer.from('\r\n'),
    ]),
  );
}

/** The accounts and sources the mail worker recorded the messages with, once it read them all. */
async function recorded(messages: readonly Buffer[]): Promise<{ account_id: string | null; source: string }[]> {
  const digests = messages.map((message) => Buffer.from(mailDigest(message), 'hex'));
  let rows: { account_id: string | null; source: string }[] = [];
  await eventually(
    async () => {
      ({ rows } = await app.database.db.query<{ account_id: string | null; source: string }>({
        text: 'SELECT account_id, source FROM mail_messages WHERE digest = ANY($1)',
        values: [digests],
      }));
      return rows.length === messages.length;
    },
    20_000,
    'every message read',
  );
  return rows;
}

async function suppressed(owner: ApiAccount, email: string): Promise<void> {
  await eventually(
    async () => (await eventsForEmail(app.database.db, owner.accountId, email)).length > 0,
    20_000,
    `the event of ${email}`,
  );
  expect((await owner.api.get(`/suppressions/${encodeURIComponent(email)}`)).body).toMatchObject({
    email,
    origin: 'bounce',
  });
}

describe('npm run cli -- mail ingest', () => {
  it('when an mbox of three messages holds a DSN to a return path of the account, then three are queued and its recipient is suppressed', async () => {
    const owner = await newApiAccount(app);
    const { recipient, message } = await bounceFor(owner);
    const messages = [
      message,
      autoReply('news@sender.example.com', uniqueEmail()),
      personalMessage('bounces@bounces.example.com'),
    ];
    const archive = path.join(dir, 'bounces.mbox');
    await writeFile(archive, mbox(messages));

    const run = await ingest(archive, owner.accountId);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('queued 3, duplicates 0, too large 0\n');
    await suppressed(owner, recipient);
    expect(await recorded(messages)).toEqual(messages.map(() => expect.objectContaining({ source: 'upload' })));
  });

  it('when the same archive is ingested again, then nothing is queued twice', async () => {
    const owner = await newApiAccount(app);
    const { message } = await bounceFor(owner);
    const archive = path.join(dir, 'again.mbox');
    await writeFile(archive, mbox([message, message]));

    const first = await ingest(archive, owner.account.name);
    await recorded([message]);
    const second = await ingest(archive, owner.account.name);

    expect(first.stdout).toBe('queued 1, duplicates 1, too large 0\n');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('queued 0, duplicates 2, too large 0\n');
  });

  it('when a maildir holds messages in new/ and cur/, then each is queued for the account, and a message too large is counted', async () => {
    const owner = await newApiAccount(app);
    const fresh = await bounceFor(owner);
    const seen = await bounceFor(owner);
    const maildir = path.join(dir, 'Maildir');
    await Promise.all(['new', 'cur', 'tmp'].map((sub) => mkdir(path.join(maildir, sub), { recursive: true })));
    await writeFile(path.join(maildir, 'new', '1764237600.M1P1.mx'), fresh.message);
    await writeFile(path.join(maildir, 'cur', '1764237500.M2P1.mx:2,S'), seen.message);
    await writeFile(path.join(maildir, 'cur', '1764237400.M3P1.mx:2,S'), Buffer.alloc(8192, 'x'));

    const run = await ingest(maildir, owner.account.name, { MAIL_MAX_MESSAGE_BYTES: '4096' });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('queued 2, duplicates 0, too large 1\n');
    await suppressed(owner, fresh.recipient);
    await suppressed(owner, seen.recipient);
    expect(await recorded([fresh.message, seen.message])).toEqual([
      { account_id: owner.accountId, source: 'upload' },
      { account_id: owner.accountId, source: 'upload' },
    ]);
  });

  it('when a single .eml file is given, then its message is queued', async () => {
    const owner = await newApiAccount(app);
    const { recipient, message } = await bounceFor(owner);
    const file = path.join(dir, 'one.eml');
    await writeFile(file, message);

    const run = await ingest(file, owner.account.name);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('queued 1, duplicates 0, too large 0\n');
    await suppressed(owner, recipient);
  });

  it('when the account is unknown, then it exits 1 naming it and queues nothing', async () => {
    const file = path.join(dir, 'unknown.eml');
    await writeFile(file, personalMessage('bounces@bounces.example.com'));

    const run = await ingest(file, 'no-such-account');

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No account named or with id "no-such-account"');
    expect(run.stdout).toBe('');
  });

  it('when the path does not exist, then it exits 1 saying so', async () => {
    const owner = await newApiAccount(app);
    const missing = path.join(dir, 'missing.mbox');

    const run = await ingest(missing, owner.account.name);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot read ${missing}: no such file or directory`);
  });

  it('when Redis does not answer, then it exits 1 saying the queue did not take the messages', async () => {
    const owner = await newApiAccount(app);
    const file = path.join(dir, 'outage.eml');
    await writeFile(file, personalMessage('bounces@bounces.example.com'));

    const run = await ingest(file, owner.account.name, { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /error: the mail queue \(Redis at 127\.0\.0\.1:\d+\) did not take a message: .*queued 0, duplicates 0, too large 0/,
    );
    expect(run.stdout).toBe('');
  });
});
