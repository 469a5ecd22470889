import type { Actor } from '../domain/actor.js';
import { newId } from '../domain/ids.js';
import { storedScope, type Scope } from '../domain/scope.js';
import type { Queryable } from '../db/database.js';

/** Entries by id (whatever their scope), or by address in one scope (the whole account's when null). */
export type RemovalTarget = { ids: readonly string[] } | { emails: readonly string[]; scope?: Scope };

// The entries asked for are locked first, so that what is judged protected is what would be
// deleted; the delete happens only when none is, and then removes them all.
const REMOVE_SQL = (targets: string) => `
WITH targeted AS (
  SELECT id, email, origin FROM suppressions
  WHERE account_id = $1 AND ${targets} AND ($7::text IS NULL OR scope = $7::text) FOR UPDATE
), refused AS (
  SELECT id, email FROM targeted WHERE origin = 'complaint' AND NOT $5::boolean
), deleted AS (
  DELETE FROM suppressions
  WHERE account_id = $1 AND id IN (SELECT id FROM targeted) AND NOT EXISTS (SELECT 1 FROM refused)
  RETURNING id, email, scope
), numbered AS (
  SELECT id, email, scope, row_number() OVER () AS n FROM deleted
), audited AS (
  INSERT INTO suppression_events
    (account_id, event_id, type, email, scope, api_key_id, suppression_id, outcome, reason, actor_type, actor_id)
  SELECT $1, audit.id, 'removal', numbered.email, numbered.scope, $3, numbered.id, 'removed', $6, $8::text, $9::text
  FROM numbered JOIN unnest($4::text[]) WITH ORDINALITY AS audit(id, n) USING (n)
)
SELECT id, email, false AS refused FROM deleted
UNION ALL
SELECT id, email, true FROM refused`;

const REMOVE_BY_IDS = REMOVE_SQL('id = ANY($2::uuid[])');
// Unnamed, so planned with the scope known: null for ids, which name their entry whatever its scope.
const REMOVE_BY_EMAILS = REMOVE_SQL('email = ANY($2::text[])');

export interface RemovalOptions {
  /** The key that asked for the removal, recorded with it; null for the service's own removals. */
  keyId: string | null;
  /** Removes entries a complaint put on the list too; without it, one such entry refuses the whole removal. */
  force: boolean;
  /** The caller's words, recorded with each removal. */
  reason: string | null;
  /** Who asked for it, recorded with each removal. */
  actor: Actor;
}

/** What a removal did: the ids removed, in the order asked for, or the complaint entries that refused it. */
export type Removal = { removed: string[] } | { refused: { id: string; email: string }[] };

/**
 * Deletes the entries with these (lower-case) ids, or of these normalised emails in one scope, and records each removal,
 * with the key that made it and the reason given, in the audit trail; what matched nothing is left
 * out. An entry a complaint put there is removed only with `force`: without it, the removal
 * removes nothing and names the entries that refused it.
 */
export async function removeSuppressions(
  db: Queryable,
  accountId: string,
  target: RemovalTarget,
  options: RemovalOptions,
): Promise<Removal> {
  const byIds = 'ids' in target;
  const keys = byIds ? target.ids : target.emails;
  const values = [
    accountId,
    keys,
    options.keyId,
    keys.map(() => newId()),
    options.force,
    options.reason,
    byIds ? null : storedScope(target.scope ?? null),
    options.actor.type,
    options.actor.id,
  ];
  const { rows } = await db.query<{ id: string; email: string; refused: boolean }>({
    text: byIds ? REMOVE_BY_IDS : REMOVE_BY_EMAILS,
    values,
  });
  const refused = rows.filter((row) => row.refused);
  if (refused.length > 0) return { refused: refused.map(({ id, email }) => ({ id, email })) };
  const idByKey = new Map(rows.map((row) => [byIds ? row.id : row.email, row.id]));
  return { removed: keys.flatMap((key) => idByKey.get(key) ?? []) };
}
