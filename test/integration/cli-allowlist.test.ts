import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureAccount, type Account } from '../../src/accounts/account-repository.js';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

function cli(...args: string[]): Promise<CliRun> {
  return runCli(['allowlist', ...args], { DATABASE_URL: database.url });
}

function newTestAccount(): Promise<Account> {
  return ensureAccount(database.db, `acme-${randomBytes(4).toString('hex')}`);
}

describe('npm run cli -- allowlist', () => {
  it('when a domain is added, listed and removed, then the check skips its entries only while the rule stands', async () => {
    const account = await newTestAccount();
    await addSuppressions(database.db, account.id, [
      { id: newId(), email: 'jane@staff.example', origin: 'manual', sourceId: null },
    ]);
    const stopped = async () =>
      (await createSuppressionLookups(database.db).suppressing(account.id, ['jane@staff.example']))[0] !== null;

    const added = await cli(
      'add',
      '--account',
      account.name,
      '--domain',
      'Staff.Example',
      '--note',
      'our staff',
      '--json',
    );
    expect(added.code, added.stderr).toBe(0);
    const rule = JSON.parse(added.stdout) as { id: string; domain: string; note: string; covered_entries: number };
    expect(rule).toMatchObject({ domain: 'staff.example', note: 'our staff', covered_entries: 1 });
    expect(await stopped()).toBe(false);

    const listed = await cli('list', '--account', account.id);
    expect(listed.stdout).toBe(`${rule.id}  staff.example  (our staff)\n`);

    const removed = await cli('remove', rule.id, '--account', account.name);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await stopped()).toBe(true);
    expect((await cli('list', '--account', account.name)).stdout).toBe('');
  });

  it('when a rule is not right, or names no rule of the account, then it fails with the reason and changes nothing', async () => {
    const account = await newTestAccount();
    const both = await cli('add', '--account', account.name, '--email', 'a@example.com', '--domain', 'example.com');
    const bad = await cli('add', '--account', account.name, '--domain', 'not a domain');
    const missing = await cli('remove', newId(), '--account', account.name);

    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Provide either `email` or `domain`.');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('`domain` must be a domain name');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('has no allowlist rule');
    expect((await cli('list', '--account', account.name)).stdout).toBe('');
  });
});
