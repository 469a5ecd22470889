import { coveringRules } from '../../src/allowlist/allowlist-repository.js';
import type { Database } from '../../src/db/database.js';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';

/** Refuses an add by hand of addresses the allowlist covers (409 `allowlisted`, naming the first). */
export async function refuseAllowlisted(db: Database, accountId: string, emails: readonly string[]): Promise<void> {
  const [covered] = await coveringRules(db, accountId, emails);
  if (covered === undefined) return;
  throw new AppError(
    'allowlisted',
    errorMessage('allowlisted', { email: covered.email, rule: { id: covered.rule.id, value: covered.rule.value } }),
  );
}
