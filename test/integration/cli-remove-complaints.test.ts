import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { listHistory } from '../../src/suppressions/suppression-history.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import type { Origin } from '../../src/domain/origins.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmails } from '../support/emails.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useBatchWorker } from '../support/test-batch-worker.js';

const setup = useBatchWorker();

function removeCli(args: string[], stdin: string): Promise<CliRun> {
  return runCli(
    ['remove', '-', '--wait', ...args],
    { DATABASE_URL: setup.database.url, REDIS_URL: setup.batches.redisUrl, QUEUE_PREFIX: setup.batches.prefix },
    stdin,
  );
}

/** An account whose list holds these addresses, each with its origin. */
async function accountWith(entries: readonly (readonly [string, Origin])[]) {
  const { account } = await newAccount(setup.database.db);
  const added = await addSuppressions(
    setup.database.db,
    account.id,
    entries.map(([email, origin]) => ({ id: newId(), email, origin, sourceId: null })),
  );
  return { account, ids: added.map((entry) => entry.id) };
}

async function listed(accountId: string): Promise<string[]> {
  const { rows } = await setup.database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows.map((row) => row.email);
}

describe('`remove` of a list that holds complaint entries', () => {
  it('when it has no --force, then the others are removed, the complaint entries kept and named, and it exits 1', async () => {
    const [complained, manual, bounced] = uniqueEmails(3) as [string, string, string];
    const { account, ids } = await accountWith([
      [complained, 'complaint'],
      [manual, 'manual'],
      [bounced, 'bounce'],
    ]);

    const result = await removeCli(['--account', account.name], [complained, manual, bounced].join('\n'));

    expect(result.stdout).toMatch(/^removed: +2$/m);
    expect(result.stdout).toMatch(/^protected \(complained\): +1$/m);
    expect(result.stdout).toContain(`  protected: ${complained} (${ids[0]})\n`);
    expect(result.stdout).toContain('1 entry a complaint put on the list was kept: run again with --force --reason');
    expect(result.code).toBe(1);
    expect(await listed(account.id)).toEqual([complained]);
  }, 30_000);

  it('when it has --force and a --reason, then every entry is removed and each history keeps the reason', async () => {
    const [complained, manual] = uniqueEmails(2) as [string, string];
    const { account } = await accountWith([
      [complained, 'complaint'],
      [manual, 'manual'],
    ]);

    const result = await removeCli(
      ['--account', account.name, '--force', '--reason', 'Staff inboxes, complaint filed by mistake'],
      [complained, manual].join('\n'),
    );

    expect(result.stdout).toMatch(/^removed: +2$/m);
    expect(result.code).toBe(0);
    expect(await listed(account.id)).toEqual([]);
    const history = await listHistory(setup.database.db, account.id, complained, { limit: 10 });
    expect(history.records[0]).toMatchObject({
      type: 'removal',
      reason: 'Staff inboxes, complaint filed by mistake',
    });
  }, 30_000);

  it('when a --reason comes without --force, then the others are removed with the reason and the complaint kept', async () => {
    const [complained, manual] = uniqueEmails(2) as [string, string];
    const { account } = await accountWith([
      [complained, 'complaint'],
      [manual, 'manual'],
    ]);

    const result = await removeCli(
      ['--account', account.name, '--reason', 'List cleanup'],
      [complained, manual].join('\n'),
    );

    expect(result.stdout).toMatch(/^removed: +1$/m);
    expect(result.code).toBe(1);
    expect(await listed(account.id)).toEqual([complained]);
    const history = await listHistory(setup.database.db, account.id, manual, { limit: 10 });
    expect(history.records[0]).toMatchObject({ type: 'removal', reason: 'List cleanup' });
  }, 30_000);

  it('when --force comes without --reason, then it says what is missing, exits 1 and removes nothing', async () => {
    const [complained] = uniqueEmails(1) as [string];
    const { account } = await accountWith([[complained, 'complaint']]);

    const result = await removeCli(['--account', account.name, '--force'], complained);

    expect(result.stderr).toContain('error: --force needs --reason "<why>"');
    expect(result.code).toBe(1);
    expect(await listed(account.id)).toEqual([complained]);
  }, 30_000);
});
