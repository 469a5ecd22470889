import type { Queryable } from '../db/database.js';

/** The scopes a message names before it says how many more there are. */
const SCOPES_NAMED = 5;

/**
 * The named scopes of an address's entries, in order, at most `SCOPES_NAMED + 1` (enough to say
 * that there are more). Read when an address has no entry for the whole account, to say why.
 */
export async function namedScopesOf(db: Queryable, accountId: string, email: string): Promise<string[]> {
  const { rows } = await db.query<{ scope: string }>({
    name: 'named-scopes-of-address',
    text: `SELECT scope FROM suppressions WHERE account_id = $1 AND email = $2 AND scope <> '' ORDER BY scope LIMIT $3`,
    values: [accountId, email, SCOPES_NAMED + 1],
  });
  return rows.map((row) => row.scope);
}

/**
 * Why an address without a scope finds nothing although it has entries: they are all of named
 * scopes, which only `?scope=` reaches. `scopes` as `namedScopesOf` gives them (not empty).
 */
export function onlyScopedMessage(email: string, scopes: readonly string[]): string {
  const named = scopes.slice(0, SCOPES_NAMED).map((scope) => `\`${scope}\``);
  if (scopes.length === 1) {
    return `${email} has no entry for the whole account, only one in the scope ${named[0]}: add \`?scope=${scopes[0]}\` to reach it.`;
  }
  const list =
    scopes.length > SCOPES_NAMED
      ? `${named.join(', ')} and more`
      : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `${email} has no entry for the whole account, only entries in the scopes ${list}: add \`?scope=\` with one of them to reach it.`;
}
