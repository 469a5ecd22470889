import type { Queryable } from '../../db/database.js';
import type { Scope } from '../../domain/scope.js';
import { returnPathFor } from './address.js';
import { currentReturnPathSecret } from './secret-repository.js';

export interface ReturnPathsRequest {
  /** Normalised and valid, in the order the answer keeps. */
  recipients: readonly string[];
  scope: Scope;
  messageId: string | null;
  localPart: string;
  domain: string;
}

/** The return path of each recipient, in order, signed with the account's current secret (made on first use). */
export async function makeReturnPaths(
  db: Queryable,
  accountId: string,
  request: ReturnPathsRequest,
): Promise<string[]> {
  const secret = await currentReturnPathSecret(db, accountId);
  const { scope, messageId, localPart, domain } = request;
  return request.recipients.map((recipient) =>
    returnPathFor(secret, { recipient, scope, messageId, localPart, domain }),
  );
}
