import { randomUUID } from 'node:crypto';
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
    expect(dry.stdout).toContain('Run again with --apply to lift them.');
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

  it('when the account does not exist, then it fails naming it and queues nothing', async () => {
    const run = await cli('--account', 'nobody-here');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No account named or with id "nobody-here".');
  });
});
