import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureAccount, type Account } from '../../src/accounts/account-repository.js';
import { returnPathFor } from '../../src/mail/return-paths/address.js';
import { currentReturnPathSecret } from '../../src/mail/return-paths/secret-repository.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
const DAY_MS = 24 * 60 * 60 * 1000;

function cli(...args: string[]): Promise<CliRun> {
  return runCli(['return-paths', ...args], {
    DATABASE_URL: database.url,
    BOUNCE_DOMAINS: 'bounces.example.com',
    RETURN_PATH_SECRET_OVERLAP_DAYS: '3',
  });
}

function newTestAccount(): Promise<Account> {
  return ensureAccount(database.db, `acme-${randomBytes(4).toString('hex')}`);
}

describe('npm run cli -- return-paths', () => {
  it('when an operator rotates an account’s secret, then return paths made before verify for the overlap it set, and not after', async () => {
    const account = await newTestAccount();
    const old = await currentReturnPathSecret(database.db, account.id);
    const path = returnPathFor(old, {
      recipient: 'reader@example.com',
      localPart: 'bounces',
      domain: 'bounces.example.com',
    });

    const rotated = await cli('rotate', '--account', account.name);
    const rotatedAt = Date.now();

    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`${old.id.toString('hex')} verifies the return paths made with it until`);
    const current = await currentReturnPathSecret(database.db, account.id);
    expect(current.id).not.toEqual(old.id);
    expect(rotated.stdout).toContain(`${current.id.toString('hex')} signs from now on`);

    const during = await cli('verify', path, '--at', new Date(rotatedAt + 2 * DAY_MS).toISOString());
    const after = await cli('verify', path, '--at', new Date(rotatedAt + 4 * DAY_MS).toISOString());
    expect(during.code, during.stderr).toBe(0);
    expect(JSON.parse(during.stdout)).toMatchObject({
      ok: true,
      accountId: account.id,
      recipient: 'reader@example.com',
    });
    expect(after.code).toBe(1);
    expect(JSON.parse(after.stdout)).toEqual({ ok: false, problem: 'retired_secret' });
  });

  it('when a leaked secret is rotated with --overlap-days 0, then its return paths stop verifying at once', async () => {
    const account = await newTestAccount();
    const leaked = await currentReturnPathSecret(database.db, account.id);
    const path = returnPathFor(leaked, {
      recipient: 'reader@example.com',
      localPart: 'bounces',
      domain: 'bounces.example.com',
    });

    const rotated = await cli('rotate', '--account', account.id, '--overlap-days', '0');
    const verified = await cli('verify', path);
    const refused = await cli('rotate', '--account', account.id, '--overlap-days', 'soon');

    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`${leaked.id.toString('hex')} stopped verifying at once.`);
    expect(JSON.parse(verified.stdout)).toEqual({ ok: false, problem: 'retired_secret' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('must be a whole number of days from 0 to 365');
  });

  it('when the account is unknown or the address is not a return path, then it fails and says why', async () => {
    const missing = await cli('rotate', '--account', `nobody-${randomBytes(4).toString('hex')}`);
    const notOne = await cli('verify', 'postmaster@example.com');

    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No account named or with id');
    expect(notOne.code).toBe(1);
    expect(JSON.parse(notOne.stdout)).toEqual({ ok: false, problem: 'not_a_return_path' });
  });
});
