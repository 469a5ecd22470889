import type { Queryable } from '../db/database.js';
import { newId } from '../domain/ids.js';
import { addSuppressions, findSuppressionByEmail } from '../suppressions/suppression-repository.js';
import { findUnsubscribeSecret } from './unsubscribe-secret-repository.js';
import { openUnsubscribeToken, tokenAccount, type UnsubscribeTarget } from './unsubscribe-token.js';

/** The address and scope of a link, or null for a forged, altered, foreign or rotated one. */
export async function linkTarget(db: Queryable, token: string): Promise<UnsubscribeTarget | null> {
  const accountId = tokenAccount(token);
  if (accountId === null) return null;
  const secret = await findUnsubscribeSecret(db, accountId);
  return secret === null ? null : openUnsubscribeToken(token, secret);
}

/** Whether the address has an entry in the link's scope already. */
export async function isUnsubscribed(db: Queryable, target: UnsubscribeTarget): Promise<boolean> {
  return (await findSuppressionByEmail(db, target.accountId, target.email, target.scope)) !== null;
}

/**
 * The recipient's one-click unsubscribe: the address is added to the link's scope with origin
 * `unsubscribe`, recorded as the link's doing; an entry already there is kept as it is.
 */
export async function unsubscribe(db: Queryable, target: UnsubscribeTarget): Promise<void> {
  await addSuppressions(
    db,
    target.accountId,
    [{ id: newId(), email: target.email, origin: 'unsubscribe', sourceId: null, scope: target.scope }],
    { type: 'unsubscribe_link', id: null },
  );
}
