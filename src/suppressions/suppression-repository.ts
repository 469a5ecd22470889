import type { EmailFilter } from './email-search.js';
import type { Actor } from '../domain/actor.js';
import type { Origin } from '../domain/origins.js';
import type { Suppression } from './suppression.js';
import { newId } from '../domain/ids.js';
import { scopeOfStored, storedScope, type Scope } from '../domain/scope.js';
import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, type KeysetQuery } from '../db/keyset-page.js';

export interface SuppressionRow {
  id: string;
  account_id: string;
  email: string;
  origin: Origin;
  source_id: string | null;
  scope: string;
  created_at: Date;
}

export const COLUMNS = 'id, account_id, email, origin, source_id, scope, created_at';

export function fromRow(row: SuppressionRow): Suppression {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    origin: row.origin,
    sourceId: row.source_id,
    scope: scopeOfStored(row.scope),
    createdAt: row.created_at,
  };
}

export interface ListQuery extends KeysetQuery<string> {
  accountId: string;
  origin?: Origin | undefined;
  /** Only the entries of this named scope. */
  scope?: string | undefined;
  email?: EmailFilter | undefined;
  domain?: string | undefined;
  /** Exclusive bounds on `created_at`, to the millisecond (see `filterConditions`). */
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
}

export interface Page {
  entries: Suppression[];
  hasMore: boolean;
}

/** `jane_%` as a LIKE pattern that matches its own characters, then anything. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The filters, each written as its index expects it: a prefix as LIKE, which under the column's
 * "C" collation the planner turns into a range of the (account_id, email) key; the domain as
 * exactly the expression of `suppressions_account_domain_id_idx`.
 */
function filterConditions(query: ListQuery, values: unknown[]): string[] {
  const conditions: string[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(sql(`$${values.length}`));
  };
  if (query.origin !== undefined) add((p) => `origin = ${p}`, query.origin);
  if (query.scope !== undefined) add((p) => `scope = ${p}`, query.scope);
  if (query.email !== undefined) {
    if ('exact' in query.email) add((p) => `email = ${p}`, query.email.exact);
    else add((p) => `email LIKE ${p}`, likePrefix(query.email.prefix));
  }
  if (query.domain !== undefined) add((p) => `split_part(email, '@', 2) = ${p}`, query.domain);
  // `created_at` is stored to the microsecond but shown to the millisecond: "after 12:00:00.123"
  // starts at .124, so that an entry's own shown time excludes it, as "before" does.
  if (query.createdAfter !== undefined) add((p) => `created_at >= ${p}`, new Date(query.createdAfter.getTime() + 1));
  if (query.createdBefore !== undefined) add((p) => `created_at < ${p}`, query.createdBefore);
  return conditions;
}

/**
 * Keyset pages, newest first. `after` walks to older entries, `before` to newer ones (read in
 * ascending order, then turned around). The cursor is compared by value, so it may be deleted.
 */
export async function listSuppressions(db: Queryable, query: ListQuery): Promise<Page> {
  const values: unknown[] = [query.accountId];
  const conditions = ['account_id = $1', ...filterConditions(query, values)];
  const plan = keysetPlan('id', query, values);
  // Unnamed, so planned with its values: a LIKE pattern becomes an index range only when it is known.
  const text = `SELECT ${COLUMNS} FROM suppressions WHERE ${conditions.join(' AND ')} ${plan.condition} ORDER BY id ${plan.direction} LIMIT ${plan.limit}`;
  const { rows } = await db.query<SuppressionRow>({ text, values });
  const page = keysetPage(rows, query.limit, plan);
  return { entries: page.rows.map(fromRow), hasMore: page.hasMore };
}

/** The entry of this address in this scope (the whole account's when `scope` is null). */
export async function findSuppressionByEmail(
  db: Queryable,
  accountId: string,
  email: string,
  scope: Scope = null,
): Promise<Suppression | null> {
  const { rows } = await db.query<SuppressionRow>({
    name: 'suppression-by-email',
    text: `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = $2 AND scope = $3`,
    values: [accountId, email, storedScope(scope)],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

export interface NewSuppression {
  id: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
  /** The whole account's when absent. */
  scope?: Scope;
}

export interface AddedSuppression {
  id: string;
  email: string;
  scope: Scope;
  /** False when the address was already on the list: its entry is kept as it was. */
  created: boolean;
}

const ADD_SQL = `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::text[])
    WITH ORDINALITY AS t(id, email, origin, source_id, scope, record_id, ord)
), inserted AS (
  INSERT INTO suppressions (id, account_id, email, origin, source_id, scope)
  SELECT id, $1, email, origin, source_id, scope FROM input ORDER BY email, scope
  ON CONFLICT (account_id, email, scope) DO NOTHING
  RETURNING id
), recorded AS (
  -- Each entry made, with who made it, in the history: the additions of an actor.
  INSERT INTO suppression_events
    (account_id, event_id, type, email, scope, source_id, suppression_id, outcome, actor_type, actor_id)
  SELECT $1, record_id, 'addition', email, scope, source_id, id, 'suppressed', $8::text, $9::text
  FROM input WHERE $8::text IS NOT NULL AND id IN (SELECT id FROM inserted)
)
-- "IN (SELECT ...)" is a hashed lookup; a join of the two CTEs would be planned as a nested loop.
SELECT input.email, input.scope,
       CASE
         WHEN input.id IN (SELECT id FROM inserted) THEN input.id
         ELSE (SELECT existing.id FROM suppressions existing
               WHERE existing.account_id = $1 AND existing.email = input.email AND existing.scope = input.scope)
       END AS id,
       input.id IN (SELECT id FROM inserted) AS created
FROM input
ORDER BY input.ord`;

const entryKey = (email: string, scope: string): string => `${email}\n${scope}`;

/**
 * Inserts the entries that are new and returns, in input order, the id each address has on the
 * list in its scope; the first entry for an address and scope wins. Emails must be normalised and
 * distinct within a scope. Rows are inserted in (email, scope) order so that concurrent batches take
 * their locks in one order. With an `actor`, each entry made is recorded in the history as its
 * addition (the tests' fixtures and the bench's seed give none).
 */
export async function addSuppressions(
  db: Queryable,
  accountId: string,
  entries: readonly NewSuppression[],
  actor?: Actor,
): Promise<AddedSuppression[]> {
  const results = new Map<string, AddedSuppression>();
  const keyOf = (entry: NewSuppression) => entryKey(entry.email, storedScope(entry.scope ?? null));
  let pending = entries;
  // An entry inserted by a concurrent transaction after this statement's snapshot is neither
  // inserted nor visible; running the statement again for those finds it.
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
    const { rows } = await db.query<{ email: string; scope: string; id: string | null; created: boolean }>({
      // Unnamed: a generic plan saved while the table was small would go on scanning it whole.
      text: ADD_SQL,
      values: [
        accountId,
        pending.map((entry) => entry.id),
        pending.map((entry) => entry.email),
        pending.map((entry) => entry.origin),
        pending.map((entry) => entry.sourceId),
        pending.map((entry) => storedScope(entry.scope ?? null)),
        pending.map(() => newId()),
        actor?.type ?? null,
        actor?.id ?? null,
      ],
    });
    for (const row of rows) {
      if (row.id === null) continue;
      const added = { id: row.id, email: row.email, scope: scopeOfStored(row.scope), created: row.created };
      results.set(entryKey(row.email, row.scope), added);
    }
    pending = pending.filter((entry) => !results.has(keyOf(entry)));
  }
  if (pending.length > 0) throw new Error(`Could not settle ${pending.length} suppressions under concurrent changes`);
  return entries.map((entry) => results.get(keyOf(entry)) as AddedSuppression);
}
