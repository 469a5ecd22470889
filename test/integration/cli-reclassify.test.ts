import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { createLogger } from '../../src/logger.js';
import { MAINTENANCE_QUEUE } from '../../src/queues.js';
import { startMaintenanceWorker, type MaintenanceWorker } from '../../workers/maintenance-worker.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail } from '../support/emails.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useTestDatabase } from '../support/test-database.js';
import { createTestQueue, type TestQueue } from '../support/test-queue.js';
import { queueConfig } from '../support/test-config.js';

const database = useTestDatabase();
let maintenance: TestQueue;
let worker: MaintenanceWorker;

beforeAll(async () => {
  maintenance = await createTestQueue(MAINTENANCE_QUEUE);
  worker = startMaintenanceWorker(
    queueConfig(maintenance.prefix),
    { db: database.db, logger: createLogger('silent'), connection: maintenance.connection },
    { expiryEveryMs: 3_600_000 },
  );
});
afterAll(async () => {
  await worker.close();
  await maintenance.cleanup();
});

// The run is looked at every 50 ms rather than every 500, so the command ends soon after the workers do.
const cli = (...args: string[]): Promise<CliRun> =>
  runCli(['reclassify', '--poll-ms', '50', ...args], {
    DATABASE_URL: database.url,
    REDIS_URL: maintenance.redisUrl,
    QUEUE_PREFIX: maintenance.prefix,
  });

/** An entry of origin `bounce` whose one record is a permanent bounce with this text, as recorded before bounces were classified. */
async function bounceEntry(accountId: string, diagnostic: string): Promise<string> {
  const email = uniqueEmail();
  const [entry] = await addSuppressions(database.db, accountId, [
    { id: newId(), email, origin: 'bounce', sourceId: null },
  ]);
  await database.db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_diagnostic, suppression_id, outcome, occurred_at, received_at)
           VALUES ($1, $2, 'bounce', $3, 'permanent', $4, $5, 'suppressed', now() - interval '1 hour', now() - interval '1 hour')`,
    values: [accountId, `evt-${randomUUID()}`, email, diagnostic, entry!.id],
  });
  return email;
}

async function listed(accountId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows.map((row) => row.email);
}

describe('npm run cli -- reclassify', () => {
  it('when run without --apply, then it reports what it would lift and lifts nothing; with --apply, it lifts it', async () => {
    const { account, accountId } = await newAccount(database.db);
    const blocked = await bounceEntry(accountId, '550 5.7.606 Access denied, banned sending IP [203.0.113.7]');
    const dead = await bounceEntry(accountId, '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown');

    const dry = await cli('--account', account.name);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(', dry run): completed');
    expect(dry.stdout).toMatch(/entries it would lift +1 \(sender_blocked 1\)/);
    expect(dry.stdout).toContain('then run again with --apply to lift them.');
    expect(await listed(accountId)).toEqual([blocked, dead].sort());

    const applied = await cli('--account', accountId, '--apply', '--json');
    expect(applied.code, applied.stderr).toBe(0);
    const run = JSON.parse(applied.stdout);
    expect(run).toMatchObject({
      object: 'bounce_reclassification',
      status: 'completed',
      dry_run: false,
      lifted: 1,
      entries_examined: 2,
    });
    expect(await listed(accountId)).toEqual([dead]);
  });

  it('when a dry run writes its entries with --output, then the file lists what it would lift for review, and --apply --output - prints what it lifted', async () => {
    const { account, accountId } = await newAccount(database.db);
    const blocked = await bounceEntry(accountId, '550 5.7.606 Access denied, banned sending IP [203.0.113.7]');
    const dead = await bounceEntry(accountId, '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown');
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'reclassify-')), 'review.csv');

    const dry = await cli('--account', account.name, '--output', file);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`listed as CSV in          ${file} (1 entry)`);
    const review = parse<Record<string, string>>(await readFile(file, 'utf8'), { columns: true });
    expect(review).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: blocked,
        category: 'sender_blocked',
        reason: expect.any(String),
        rule: expect.any(String),
        bounces: '1',
        bounce_type: 'permanent',
        bounce_sub_type: '',
        bounce_status: '',
        bounce_reply_code: '',
        bounce_diagnostic: '550 5.7.606 Access denied, banned sending IP [203.0.113.7]',
        bounce_provider: '',
        bounce_remote_mta: '',
        bounce_occurred_at: expect.stringMatching(/Z$/),
      },
    ]);
    expect(await listed(accountId)).toEqual([blocked, dead].sort());

    const applied = await cli('--account', account.name, '--apply', '--output', '-');
    expect(applied.code, applied.stderr).toBe(0);
    expect(parse(applied.stdout, { columns: true })).toEqual(review);
    expect(applied.stderr).toMatch(/entries it lifted +1 \(sender_blocked 1\)/);
    expect(await listed(accountId)).toEqual([dead]);
  });

  it('when a diagnostic begins like a formula and --escape-formulas is given, then its cell is written as text for a spreadsheet', async () => {
    const { account, accountId } = await newAccount(database.db);
    await bounceEntry(accountId, '=HYPERLINK("http://203.0.113.7") 554 5.7.1 blocked using zen.spamhaus.org');

    const plain = await cli('--account', account.name, '--output', '-');
    const escaped = await cli('--account', account.name, '--output', '-', '--escape-formulas');

    const diagnosticOf = (csv: string) => parse<Record<string, string>>(csv, { columns: true })[0]?.bounce_diagnostic;
    expect(diagnosticOf(plain.stdout)).toBe(
      '=HYPERLINK("http://203.0.113.7") 554 5.7.1 blocked using zen.spamhaus.org',
    );
    expect(diagnosticOf(escaped.stdout)).toBe(
      '\'=HYPERLINK("http://203.0.113.7") 554 5.7.1 blocked using zen.spamhaus.org',
    );
  });

  it('when the options cannot work together or the file cannot be written, then it fails saying so and starts no run', async () => {
    const { account, accountId } = await newAccount(database.db);
    const runs = async () => {
      const { rows } = await database.db.query<{ count: number }>({
        text: 'SELECT count(*)::int AS count FROM bounce_reclassifications WHERE account_id = $1',
        values: [accountId],
      });
      return rows[0]?.count;
    };
    for (const [args, message] of [
      [['--escape-formulas'], '--escape-formulas needs --output.'],
      [['--json', '--output', '-'], '--json and --output - cannot both use stdout.'],
      [['--output', path.join(tmpdir(), 'no-such-directory', 'x', 'review.csv')], 'cannot be written: ENOENT'],
    ] as const) {
      const run = await cli('--account', account.name, ...args);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
    }
    expect(await runs()).toBe(0);
  });

  it('when the account does not exist, then it fails naming it and queues nothing', async () => {
    const run = await cli('--account', 'nobody-here');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No account named or with id "nobody-here".');
  });
});
