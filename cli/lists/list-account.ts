import { findAccount, type Account } from '../../src/accounts/account-repository.js';
import type { Queryable } from '../../src/db/database.js';

/** The account a list goes to, by name or id; an error that names what was given when there is none. */
export async function findListAccount(db: Queryable, nameOrId: string): Promise<Account> {
  const account = await findAccount(db, nameOrId);
  if (!account) throw new Error(`No account named or with id "${nameOrId}".`);
  return account;
}
