import { randomUUID } from 'node:crypto';
import { ensureAccount, type Account } from '../../src/accounts/account-repository.js';
import { issueApiKey, type IssuedApiKey } from '../../src/accounts/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import type { Permission } from '../../src/accounts/api-key-token.js';

export interface TestAccount {
  /** The account as the repositories and the CLI commands take it. */
  readonly account: Account;
  readonly accountId: string;
  /** Its one key, and the key's secret. */
  readonly keyId: string;
  readonly token: string;
}

/** A new account of its own under a unique name, with one key. */
export async function newAccount(db: Database, permission: Permission = 'full_access'): Promise<TestAccount> {
  const account = await ensureAccount(db, `account-${randomUUID()}`);
  const key = await newKey(db, account, permission);
  return { account, accountId: account.id, keyId: key.keyId, token: key.token };
}

/** Another key of an existing account. */
export async function newKey(
  db: Database,
  account: Account,
  permission: Permission = 'full_access',
): Promise<IssuedApiKey> {
  return issueApiKey(db, { accountName: account.name, permission, name: permission });
}
