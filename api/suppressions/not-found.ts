import type { Queryable } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import { namedScopesOf, onlyScopedMessage } from '../../src/suppressions/scoped-entries.js';
import type { PathTarget } from './targets.js';

/**
 * The 404 of a retrieve or remove that found no entry. By address and without a scope, it says so
 * when the address has entries of named scopes only, which the caller reaches with `?scope=`; the
 * query runs only then, on this path.
 */
export async function entryNotFound(
  db: Queryable,
  accountId: string,
  target: PathTarget,
  scope: string | undefined,
): Promise<AppError> {
  if ('id' in target || scope !== undefined) return new AppError('not_found');
  const scopes = await namedScopesOf(db, accountId, target.email);
  return scopes.length === 0
    ? new AppError('not_found')
    : new AppError('not_found', onlyScopedMessage(target.email, scopes));
}
