import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findListAccount } from '../../cli/lists/list-account.js';
import type { ListFormat } from '../../src/lists/list-format.js';
import { runList, type ListRun } from '../../cli/lists/run-list.js';
import type { Account } from '../../src/accounts/account-repository.js';
import { newAccount } from '../support/accounts.js';
import { streamOf } from '../support/chunked-stream.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { runCli, spawnCli } from '../support/run-cli.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useBatchWorker } from '../support/test-batch-worker.js';
import { eventually } from '../support/test-queue.js';
import { textCollector } from '../support/text-collector.js';

const setup = useBatchWorker();

interface RunOptions {
  operation?: 'add' | 'remove';
  format?: ListFormat;
  wait?: boolean;
  origin?: ListRun['origin'];
  /** A progress line every this many jobs; by default none (the lists here are small). */
  progressEvery?: number;
  maxInvalidShown?: number;
}

/** Runs the command's logic in-process against the test queue, with the real batch worker behind it. */
async function run(account: Account, text: string, options: RunOptions = {}) {
  const stdout = textCollector();
  const stderr = textCollector();
  const report = await runList(
    {
      operation: options.operation ?? 'add',
      account,
      origin: options.origin,
      input: streamOf(text, 64),
      format: options.format ?? 'csv',
      wait: options.wait ?? true,
    },
    {
      redis: { url: setup.batches.redisUrl },
      prefix: setup.batches.prefix,
      stdout: stdout.stream,
      stderr: stderr.stream,
      tty: false,
      progressEvery: options.progressEvery ?? 1000,
      maxInvalidShown: options.maxInvalidShown,
    },
  );
  return { ...report, stdout: stdout.text(), stderr: stderr.text() };
}

const invalidLineNumbers = (stderr: string): number[] =>
  [...stderr.matchAll(/^line (\d+): /gm)].map((match) => Number(match[1]));

async function listedEmails(account: Account): Promise<string[]> {
  const { rows } = await setup.database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [account.id],
  });
  return rows.map((row) => row.email);
}

async function suppressionCount(account: Account): Promise<number> {
  const { rows } = await setup.database.db.query<{ count: string }>({
    text: 'SELECT count(*) FROM suppressions WHERE account_id = $1',
    values: [account.id],
  });
  return Number(rows[0]?.count);
}

describe('cli import', () => {
  it('when a list has new, already present, repeated and invalid addresses, then each is counted and the invalid lines are named', async () => {
    const { account } = await newAccount(setup.database.db);
    const [fresh1, fresh2, present] = uniqueEmails(3);
    await addSuppressions(setup.database.db, account.id, [
      { id: newId(), email: present!, origin: 'bounce', sourceId: null },
    ]);
    const list = [
      fresh1, //                          1 new
      ` ${fresh2!.toUpperCase()} `, //    2 new, once normalised
      fresh1, //                          3 repeated
      'not-an-address', //                4 invalid
      '', //                              5 blank
      present, //                         6 already present
      'user@', //                         7 invalid
    ].join('\n');

    const result = await run(account, list);

    expect(result.summary).toEqual({ lines: 7, invalid: 2, queued: 3, duplicates: 1, jobs: 1 });
    expect(result.totals).toEqual({
      jobs: 1,
      added: 2,
      already_present: 1,
      duplicates: 0,
      removed: 0,
      not_found: 0,
      allowlisted: 0,
      protected: 0,
      invalid: 0,
      failed: [],
      protectedEntries: [],
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('line 4: "not-an-address" is not a valid email address\n');
    expect(result.stderr).toContain('line 7: "user@" is not a valid email address\n');
    expect(invalidLineNumbers(result.stderr)).toEqual([4, 7]);
    expect(result.stdout).toBe(
      [
        `Import into account "${account.name}" (${account.id}) finished: 1 job.`,
        'lines read:      7',
        'invalid lines:   2',
        'queued:          3',
        'added:           2',
        'already present: 1',
        'duplicates:      1',
        'removed:         0',
        'not found:       0',
        'failed jobs:     0',
        '',
      ].join('\n'),
    );
    expect(await listedEmails(account)).toEqual([fresh1, fresh2, present].sort());
  });

  it('when every line is valid, then the exit code is 0', async () => {
    const result = await run((await newAccount(setup.database.db)).account, uniqueEmails(2).join('\n'));
    expect(result.totals).toMatchObject({ added: 2 });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('when there are more invalid lines than are shown, then the rest are counted', async () => {
    const { account } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    const result = await run(account, ['bad-1', email, 'bad-2', 'bad-3', 'bad-4'].join('\n'), {
      format: 'txt',
      maxInvalidShown: 2,
    });

    expect(result.stderr).toBe(
      [
        'line 1: "bad-1" is not a valid email address',
        'line 3: "bad-2" is not a valid email address',
        '... and 2 more invalid lines, not shown',
        '',
      ].join('\n'),
    );
    expect(result.summary).toMatchObject({ invalid: 4, queued: 1 });
  });

  it('when the CSV header has an Email column that is not first, with quoted commas and a quoted line break, then that column is read', async () => {
    const { account } = await newAccount(setup.database.db);
    const [jane, bob, eve] = uniqueEmails(3);
    const csv = [
      'Name,Note,Email', //                         1 header
      `"Doe, Jane","said ""stop""",${jane}`, //     2
      `Bob,"first line`, //                         3 a quoted line break...
      `second line, with a comma",${bob}`, //       4 ...ends here
      'Mallory,x,mallory(at)example.com', //        5 invalid
      `Eve,,"${eve!.toUpperCase()}"`, //            6
    ].join('\r\n');

    const result = await run(account, `${csv}\r\n`);

    expect(result.stderr).toContain('line 1 is a header: reading addresses from column 3 ("Email")\n');
    expect(invalidLineNumbers(result.stderr)).toEqual([5]);
    expect(result.summary).toMatchObject({ lines: 6, invalid: 1, queued: 3 });
    expect(result.totals).toMatchObject({ added: 3 });
    expect(await listedEmails(account)).toEqual([jane, bob, eve].sort());
  });

  it('when the CSV has no header, then the first column of every row is read', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(3);
    const csv = emails.map((email, index) => `${email},2024-01-0${index + 1},hard bounce`).join('\n');

    const result = await run(account, csv);

    expect(result.stderr).toBe('');
    expect(result.summary).toMatchObject({ lines: 3, invalid: 0, queued: 3 });
    expect(result.totals).toMatchObject({ added: 3 });
    expect(await listedEmails(account)).toEqual([...emails].sort());
  });

  it.each([
    [
      'Amazon SES',
      'EmailAddress,Reason,LastUpdateTime',
      (email: string) => `${email},BOUNCE,2024-05-01T10:00:00Z`,
      'column 1 ("EmailAddress")',
    ],
    [
      'Mailgun',
      'address,code,error,created_at',
      (email: string) => `${email},550,"5.1.1 The email account does not exist, sorry",Wed 01 May 2024`,
      'column 1 ("address")',
    ],
    [
      'Mailchimp',
      'First Name,Last Name,Email Address',
      (email: string) => `Jane,Doe,${email}`,
      'column 3 ("Email Address")',
    ],
  ])('when the CSV is a %s export, then its address column is read', async (_, header, row, column) => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(2);

    const result = await run(account, [header, ...emails.map(row)].join('\n'));

    expect(result.stderr).toBe(`line 1 is a header: reading addresses from ${column}\n`);
    expect(result.totals).toMatchObject({ added: 2 });
    expect(await listedEmails(account)).toEqual([...emails].sort());
  });

  it('when the list is NDJSON, then strings and email fields are read and bad lines are named', async () => {
    const { account } = await newAccount(setup.database.db);
    const [first, second] = uniqueEmails(2);
    const ndjson = [
      JSON.stringify(first), //                                1
      JSON.stringify({ email: second, reason: 'complaint' }), // 2
      '{"mail": "x@example.com"}', //                           3 no email field
      '{oops', //                                               4 malformed
    ].join('\n');

    const result = await run(account, ndjson, { format: 'ndjson' });

    expect(invalidLineNumbers(result.stderr)).toEqual([3, 4]);
    expect(result.stderr).toContain('line 3: expected a JSON string or an object with an "email" string\n');
    expect(result.totals).toMatchObject({ added: 2 });
    expect(await listedEmails(account)).toEqual([first, second].sort());
  });

  it('when the list is plain text, then each line is one address', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(3);

    const result = await run(account, `${emails.join('\r\n')}\r\n\r\n`, { format: 'txt' });

    expect(result.summary).toMatchObject({ lines: 4, invalid: 0, queued: 3 });
    expect(result.totals).toMatchObject({ added: 3 });
  });

  it('when the origin is bounce, then new entries have it and no source id', async () => {
    const { account } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    await run(account, email, { origin: 'bounce' });

    const { rows } = await setup.database.db.query<{ origin: string; source_id: string | null }>({
      text: 'SELECT origin, source_id FROM suppressions WHERE account_id = $1',
      values: [account.id],
    });
    expect(rows).toEqual([{ origin: 'bounce', source_id: null }]);
  });

  it('when the list is bigger than one job, then it goes in jobs of 10,000 and all of it is added', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(25_000);

    const result = await run(account, `email\n${emails.join('\n')}\n`, { progressEvery: 1 });

    expect(result.summary).toEqual({ lines: 25_001, invalid: 0, queued: 25_000, duplicates: 0, jobs: 3 });
    expect(result.totals).toMatchObject({ jobs: 3, added: 25_000, failed: [] });
    expect(result.stderr).toMatch(/^queued 3 jobs \(25,000 addresses\) from 25,001 lines$/m);
    expect(result.stderr).toMatch(/^3 of 3 jobs finished \(25,000 addresses processed\)$/m);
    expect(await suppressionCount(account)).toBe(25_000);
    const jobs = await setup.batches.queue.getJobs(['completed']);
    const ours = jobs.filter((job) => (job.data as { account_id: string }).account_id === account.id);
    expect(ours.map((job) => (job.data as { emails: string[] }).emails.length).sort()).toEqual([10_000, 10_000, 5_000]);
  }, 60_000);

  it('when it does not wait, then it reports the jobs queued and the workers still add everything', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(3);

    const result = await run(account, [...emails, 'bad'].join('\n'), { wait: false });

    expect(result.totals).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(
      [
        `Import into account "${account.name}" (${account.id}): queued 3 addresses in 1 job; ` +
          'the workers process them in the background (--wait waits for them and prints the totals).',
        'lines read:    4',
        'invalid lines: 1',
        'queued:        3',
        'duplicates:    0',
        '',
      ].join('\n'),
    );
    await eventually(async () => (await suppressionCount(account)) === 3, 10_000, 'three suppressions');
  });

  it('when the account is gone by the time the job runs, then the job failure is reported with its reason', async () => {
    const ghost: Account = { id: randomUUID(), name: 'ghost', createdAt: new Date() };

    const result = await run(ghost, uniqueEmail());

    expect(result.totals?.failed).toEqual([
      { id: expect.any(String), reason: `invalid batch: account ${ghost.id} does not exist` },
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^failed jobs: +1\n {2}job \S+: invalid batch: account \S+ does not exist\n$/m);
  });

  it('when the account is looked up, then a name or an id finds it and anything else is a clear error', async () => {
    const { account } = await newAccount(setup.database.db);

    expect(await findListAccount(setup.database.db, account.name)).toEqual(account);
    expect(await findListAccount(setup.database.db, account.id.toUpperCase())).toEqual(account);
    await expect(findListAccount(setup.database.db, 'no-such-account')).rejects.toThrow(
      /^No account named or with id "no-such-account"\.$/,
    );
  });
});

describe('cli remove', () => {
  it('when a list names entries by address and by id, then they are removed and the rest counted as not found', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(5);
    const added = await addSuppressions(
      setup.database.db,
      account.id,
      emails.map((email) => ({ id: newId(), email, origin: 'manual', sourceId: null })),
    );
    const csv = [
      'id,email', //                              1 header: the email column is read, a UUID is an id
      `,${emails[0]!.toUpperCase()}`, //          2 by address
      `,${added[1]!.id}`, //                       3 by id
      `,${added[2]!.id.toUpperCase()}`, //         4 by id
      `,${emails[0]}`, //                         5 repeated
      `,unknown.${randomUUID()}@example.com`, //   6 not found
      `,${randomUUID()}`, //                      7 not found (id)
      ',not-an-address', //                       8 invalid
    ].join('\n');

    const result = await run(account, csv, { operation: 'remove' });

    expect(invalidLineNumbers(result.stderr)).toEqual([8]);
    expect(result.summary).toMatchObject({ lines: 8, invalid: 1, queued: 5, duplicates: 1, jobs: 2 });
    expect(result.totals).toMatchObject({ jobs: 2, removed: 3, not_found: 2, added: 0, failed: [] });
    expect(result.stdout).toMatch(/^Removal from account ".+" \(.+\) finished: 2 jobs\.$/m);
    expect(result.stdout).toMatch(/^removed: +3$/m);
    expect(result.stdout).toMatch(/^not found: +2$/m);
    expect(await listedEmails(account)).toEqual([emails[3], emails[4]].sort());
  });

  it('when an NDJSON removal list has id and email fields, then each entry is removed', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(2);
    const added = await addSuppressions(
      setup.database.db,
      account.id,
      emails.map((email) => ({ id: newId(), email, origin: 'manual', sourceId: null })),
    );
    const ndjson = [
      JSON.stringify({ object: 'suppression', id: added[0]!.id, email: emails[0] }),
      JSON.stringify({ email: emails[1] }),
    ].join('\n');

    const result = await run(account, ndjson, { operation: 'remove', format: 'ndjson' });

    expect(result.totals).toMatchObject({ removed: 2, not_found: 0 });
    expect(result.exitCode).toBe(0);
    expect(await listedEmails(account)).toEqual([]);
  });
});

/** This file's database and queue prefix. */
const listEnv = (): Record<string, string> => ({
  DATABASE_URL: setup.database.url,
  REDIS_URL: setup.batches.redisUrl,
  QUEUE_PREFIX: setup.batches.prefix,
});

describe('the command line', () => {
  it('when a list is piped to the program’s `import - --wait`, then it prints the totals and exits 1 for the invalid line', async () => {
    const { account } = await newAccount(setup.database.db);
    const emails = uniqueEmails(3);

    const list = ['email', ...emails, 'broken@', emails[0]].join('\n');

    const result = await spawnCli(['import', '-', '--account', account.name, '--wait'], listEnv(), list);

    expect(result.stderr).toMatch(/^line 5: "broken@" is not a valid email address$/m);
    expect(result.stdout).toMatch(/^Import into account ".+" \(.+\) finished: 1 job\.$/m);
    expect(result.stdout).toMatch(/^lines read: +6$/m);
    expect(result.stdout).toMatch(/^invalid lines: +1$/m);
    expect(result.stdout).toMatch(/^added: +3$/m);
    expect(result.stdout).toMatch(/^duplicates: +1$/m);
    expect(result.code).toBe(1);
    expect(await listedEmails(account)).toEqual([...emails].sort());
  }, 30_000);

  it('when the account does not exist, then it says so and exits 1 before reading anything', async () => {
    const result = await runCli(['import', '-', '--account', 'no-such-account'], listEnv(), 'someone@example.com\n');

    expect(result.stderr).toContain('error: No account named or with id "no-such-account".\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });
});
