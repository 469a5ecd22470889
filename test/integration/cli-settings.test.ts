import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureAccount, type Account } from '../../src/accounts/account-repository.js';
import { getSettings, updateSettings } from '../../src/policy/settings-repository.js';
import { DEFAULT_SETTINGS } from '../../src/policy/settings.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

function cli(...args: string[]): Promise<CliRun> {
  return runCli(['settings', ...args], { DATABASE_URL: database.url });
}

function newTestAccount(): Promise<Account> {
  return ensureAccount(database.db, `acme-${randomBytes(4).toString('hex')}`);
}

const jsonOf = (run: CliRun) => JSON.parse(run.stdout) as Record<string, unknown>;

/** A failed run: exit code 1, the message on stderr, nothing on stdout. */
function expectFailure(run: CliRun, message: string): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`error: ${message}`);
}

describe('npm run cli -- settings show', () => {
  it('when an account never changed its settings, then --json gives the defaults with the account', async () => {
    const account = await newTestAccount();

    const run = await cli('show', '--account', account.name, '--json');

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(jsonOf(run)).toStrictEqual({ account_id: account.id, account: account.name, ...DEFAULT_SETTINGS });
  });

  it('when shown as text, by id, then each setting is a line, with off and never for the unset ones', async () => {
    const account = await newTestAccount();
    await updateSettings(database.db, account.id, {
      bounce_actions: { delivery_failure: 'count' },
      soft_bounce_threshold: 3,
      expire_after_days: { bounce: 30 },
    });

    const run = await cli('show', '--account', account.id);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        `Suppression settings of account "${account.name}" (${account.id}):`,
        '  bounce_actions.invalid_address      suppress',
        '  bounce_actions.mailbox_unavailable  count',
        '  bounce_actions.sender_blocked       record',
        '  bounce_actions.delivery_failure     count',
        '  bounce_actions.auto_reply           record',
        '  bounce_actions.unknown              count',
        '  soft_bounce_threshold               3',
        // The window the account never set: the default, which the row its first change made holds.
        `  soft_bounce_window_days             ${DEFAULT_SETTINGS.soft_bounce_window_days}`,
        '  expire_after_days.bounce            30',
        '  expire_after_days.complaint         never',
        '  expire_after_days.manual            never',
        '  complaint_scope                     message',
        '',
      ].join('\n'),
    );
  });

  it('when the account does not exist, then it fails naming what was given, and creates nothing', async () => {
    const name = `nobody-${randomBytes(4).toString('hex')}`;

    expectFailure(await cli('show', '--account', name), `No account named or with id "${name}".`);
    const { rows } = await database.db.query({ text: 'SELECT 1 FROM accounts WHERE name = $1', values: [name] });
    expect(rows).toHaveLength(0);
  });
});

describe('npm run cli -- settings set', () => {
  it('when every option is given, then the settings are stored and printed as they now are', async () => {
    const account = await newTestAccount();

    const run = await cli(
      'set',
      '--account',
      account.name,
      '--bounce-action',
      'sender_blocked=count',
      '--bounce-action',
      'unknown=record',
      '--soft-bounce-threshold',
      '4',
      '--soft-bounce-window-days',
      '14',
      '--expire-bounce-after-days',
      '30',
      '--expire-complaint-after-days',
      '3650',
      '--expire-manual-after-days',
      '1',
      '--complaint-scope',
      'global',
      '--json',
    );

    expect(run.code, run.stderr).toBe(0);
    const expected = {
      bounce_actions: { ...DEFAULT_SETTINGS.bounce_actions, sender_blocked: 'count', unknown: 'record' },
      soft_bounce_threshold: 4,
      soft_bounce_window_days: 14,
      expire_after_days: { bounce: 30, complaint: 3650, manual: 1 },
      complaint_scope: 'global',
    };
    expect(jsonOf(run)).toStrictEqual({ account_id: account.id, account: account.name, ...expected });
    expect(await getSettings(database.db, account.id)).toStrictEqual(expected);
  });

  it('when some options are given, then the others keep their values, and off and never set null', async () => {
    const account = await newTestAccount();
    await updateSettings(database.db, account.id, {
      soft_bounce_threshold: 5,
      soft_bounce_window_days: 10,
      expire_after_days: { bounce: 30, complaint: 60, manual: 90 },
    });

    const run = await cli(
      'set',
      '--account',
      account.id,
      '--soft-bounce-threshold',
      'off',
      '--expire-complaint-after-days',
      'never',
    );

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        `Updated the suppression settings of account "${account.name}" (${account.id}):`,
        '  bounce_actions.invalid_address      suppress',
        '  bounce_actions.mailbox_unavailable  count',
        '  bounce_actions.sender_blocked       record',
        '  bounce_actions.delivery_failure     record',
        '  bounce_actions.auto_reply           record',
        '  bounce_actions.unknown              count',
        '  soft_bounce_threshold               off',
        '  soft_bounce_window_days             10',
        '  expire_after_days.bounce            30',
        '  expire_after_days.complaint         never',
        '  expire_after_days.manual            90',
        '  complaint_scope                     message',
        '',
      ].join('\n'),
    );
    expect(await getSettings(database.db, account.id)).toStrictEqual({
      bounce_actions: DEFAULT_SETTINGS.bounce_actions,
      soft_bounce_threshold: null,
      soft_bounce_window_days: 10,
      expire_after_days: { bounce: 30, complaint: null, manual: 90 },
      complaint_scope: 'message',
    });
  });

  it.each([
    [
      ['--bounce-action', 'sender_blocked=ignore'],
      '`bounce_actions.sender_blocked` must be one of `suppress`, `count` or `record`.',
    ],
    [
      ['--bounce-action', 'blocked=record'],
      '`bounce_actions` has the unknown key `blocked`; the categories are `invalid_address`, `mailbox_unavailable`, `sender_blocked`, `delivery_failure`, `auto_reply` and `unknown`.',
    ],
    [['--soft-bounce-threshold', '1'], '`soft_bounce_threshold` must be null or a whole number from 2 to 100.'],
    [['--soft-bounce-threshold', 'never'], '`soft_bounce_threshold` must be null or a whole number from 2 to 100.'],
    [['--soft-bounce-window-days', 'off'], '`soft_bounce_window_days` must be a whole number from 1 to 365.'],
    [
      ['--expire-bounce-after-days', '2.5'],
      '`expire_after_days.bounce` must be null or a whole number from 1 to 3650.',
    ],
    [
      ['--expire-complaint-after-days', '3651'],
      '`expire_after_days.complaint` must be null or a whole number from 1 to 3650.',
    ],
    [
      ['--expire-manual-after-days', 'soon'],
      '`expire_after_days.manual` must be null or a whole number from 1 to 3650.',
    ],
  ])('when %j is given, then it fails with the API’s message and changes nothing', async (options, message) => {
    const account = await newTestAccount();
    await updateSettings(database.db, account.id, { soft_bounce_threshold: 3 });

    expectFailure(await cli('set', '--account', account.name, '--soft-bounce-window-days', '9', ...options), message);
    expect(await getSettings(database.db, account.id)).toStrictEqual({ ...DEFAULT_SETTINGS, soft_bounce_threshold: 3 });
  });

  it('when no setting is given, then it fails naming the options', async () => {
    const account = await newTestAccount();

    expectFailure(
      await cli('set', '--account', account.name),
      'Give at least one of --bounce-action, --soft-bounce-threshold, --soft-bounce-window-days, --expire-bounce-after-days, --expire-complaint-after-days, --expire-manual-after-days or --complaint-scope.',
    );
  });

  it('when another account’s settings are changed, then this one keeps its own', async () => {
    const mine = await newTestAccount();
    const theirs = await newTestAccount();
    await updateSettings(database.db, mine.id, { expire_after_days: { manual: 12 } });

    const run = await cli('set', '--account', theirs.name, '--expire-manual-after-days', '99');

    expect(run.code, run.stderr).toBe(0);
    expect(await getSettings(database.db, mine.id)).toStrictEqual({
      ...DEFAULT_SETTINGS,
      expire_after_days: { bounce: null, complaint: null, manual: 12 },
      complaint_scope: 'message',
    });
  });
});
