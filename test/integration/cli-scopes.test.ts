import { describe, expect, it } from 'vitest';
import { newAccount } from '../support/accounts.js';
import { uniqueEmails } from '../support/emails.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useBatchWorker } from '../support/test-batch-worker.js';

const setup = useBatchWorker();

function cli(args: string[], stdin = ''): Promise<CliRun> {
  return runCli(
    args,
    { DATABASE_URL: setup.database.url, REDIS_URL: setup.batches.redisUrl, QUEUE_PREFIX: setup.batches.prefix },
    stdin,
  );
}

async function entries(accountId: string): Promise<string[]> {
  const { rows } = await setup.database.db.query<{ email: string; scope: string }>({
    text: 'SELECT email, scope FROM suppressions WHERE account_id = $1 ORDER BY email, scope',
    values: [accountId],
  });
  return rows.map((row) => `${row.email} ${row.scope || '(all mail)'}`);
}

describe('scopes in the CLI', () => {
  it('when a list is imported, exported and removed with --scope, then only that scope’s entries are touched', async () => {
    const { account } = await newAccount(setup.database.db);
    const [one, two] = uniqueEmails(2) as [string, string];
    await cli(['import', '-', '--account', account.name, '--wait'], `${one}\n`);

    const imported = await cli(
      ['import', '-', '--account', account.name, '--scope', 'newsletter', '--wait'],
      `${one}\n${two}\n`,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(await entries(account.id)).toEqual([`${one} (all mail)`, `${one} newsletter`, `${two} newsletter`].sort());

    const exported = await cli(['export', '--account', account.name, '--scope', 'newsletter', '--format', 'ndjson']);
    expect(
      exported.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).scope),
    ).toEqual(['newsletter', 'newsletter']);

    const removed = await cli(
      ['remove', '-', '--account', account.name, '--scope', 'newsletter', '--wait'],
      `${one}\n`,
    );
    expect(removed.code, removed.stderr).toBe(0);
    expect(await entries(account.id)).toEqual([`${one} (all mail)`, `${two} newsletter`].sort());
  });

  it('when --scope is not a scope, then it fails before anything is read or queued', async () => {
    const { account } = await newAccount(setup.database.db);
    const run = await cli(['import', '-', '--account', account.name, '--scope', 'News Letter'], 'a@example.com\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--scope must be 1 to 64 characters');
    expect(await entries(account.id)).toEqual([]);
  });
});
