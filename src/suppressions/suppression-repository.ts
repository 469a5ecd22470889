import type { EmailFilter } from './email-search.js';
import type { Origin, Suppression } from './suppression.js';
import { newId } from '../domain/ids.js';
import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, type KeysetQuery } from '../db/keyset-page.js';

export interface SuppressionRow {
  id: string;
  account_id: string;
  email: string;
  origin: Origin;
  source_id: string | null;
  created_at: Date;
}

export const COLUMNS = 'id, account_id, email, origin, source_id, created_at';

export function fromRow(row: SuppressionRow): Suppression {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    origin: row.origin,
    sourceId: row.source_id,
    createdAt: row.created_at,
  };
}

export interface ListQuery extends KeysetQuery<string> {
  accountId: string;
  origin?: Origin | undefined;
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

export async function findSuppressionByEmail(
  db: Queryable,
  accountId: string,
  email: string,
): Promise<Suppression | null> {
  const { rows } = await db.query<SuppressionRow>({
    name: 'suppression-by-email',
    text: `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = $2`,
    values: [accountId, email],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

/** Pairs of (account, value) to look up at once: `accountIds[i]` with `values[i]`. */
export interface AccountValues {
  accountIds: readonly string[];
  values: readonly string[];
}

/**
 * The entries of these (account, `column`) pairs, of any number of accounts, in no particular order:
 * one round trip. A lateral probe per pair, which LIMIT 1 keeps from being turned into a join: joined,
 * the planner may hash the whole table; probed, each pair costs one index lookup however large the
 * account.
 */
async function findByPairs(
  db: Queryable,
  name: string,
  column: 'email' | 'id',
  pairs: AccountValues,
): Promise<Suppression[]> {
  const { rows } = await db.query<SuppressionRow>({
    name,
    text: `SELECT s.id, s.account_id, s.email, s.origin, s.source_id, s.created_at
           FROM unnest($1::uuid[], $2::${column === 'id' ? 'uuid' : 'text'}[]) AS wanted(account_id, value)
           CROSS JOIN LATERAL (
             SELECT ${COLUMNS} FROM suppressions
             WHERE account_id = wanted.account_id AND ${column} = wanted.value LIMIT 1
           ) s`,
    values: [pairs.accountIds, pairs.values],
  });
  return rows.map(fromRow);
}

/** The entries of these (account, normalised address) pairs; see `findByPairs`. */
export function findSuppressionsByEmails(db: Queryable, pairs: AccountValues): Promise<Suppression[]> {
  return findByPairs(db, 'suppressions-by-emails', 'email', pairs);
}

/** The entries of these (account, id) pairs; see `findByPairs`. */
export function findSuppressionsByIds(db: Queryable, pairs: AccountValues): Promise<Suppression[]> {
  return findByPairs(db, 'suppressions-by-ids', 'id', pairs);
}

export interface NewSuppression {
  id: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
}

export interface AddedSuppression {
  id: string;
  email: string;
  /** False when the address was already on the list: its entry is kept as it was. */
  created: boolean;
}

const ADD_SQL = `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS t(id, email, origin, source_id, ord)
), inserted AS (
  INSERT INTO suppressions (id, account_id, email, origin, source_id)
  SELECT id, $1, email, origin, source_id FROM input ORDER BY email
  ON CONFLICT (account_id, email) DO NOTHING
  RETURNING id
)
-- "IN (SELECT ...)" is a hashed lookup; a join of the two CTEs would be planned as a nested loop.
SELECT input.email,
       CASE
         WHEN input.id IN (SELECT id FROM inserted) THEN input.id
         ELSE (SELECT existing.id FROM suppressions existing WHERE existing.account_id = $1 AND existing.email = input.email)
       END AS id,
       input.id IN (SELECT id FROM inserted) AS created
FROM input
ORDER BY input.ord`;

/**
 * Inserts the entries that are new and returns, in input order, the id each address has on the
 * list; the first entry for an address wins. Emails must be normalised and distinct. Rows are
 * inserted in email order so that concurrent batches take their locks in one order.
 */
export async function addSuppressions(
  db: Queryable,
  accountId: string,
  entries: readonly NewSuppression[],
): Promise<AddedSuppression[]> {
  const results = new Map<string, AddedSuppression>();
  let pending = entries;
  // An entry inserted by a concurrent transaction after this statement's snapshot is neither
  // inserted nor visible; running the statement again for those finds it.
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
    const { rows } = await db.query<{ email: string; id: string | null; created: boolean }>({
      // Unnamed: a generic plan saved while the table was small would go on scanning it whole.
      text: ADD_SQL,
      values: [
        accountId,
        pending.map((entry) => entry.id),
        pending.map((entry) => entry.email),
        pending.map((entry) => entry.origin),
        pending.map((entry) => entry.sourceId),
      ],
    });
    for (const row of rows) {
      if (row.id !== null) results.set(row.email, { id: row.id, email: row.email, created: row.created });
    }
    pending = pending.filter((entry) => !results.has(entry.email));
  }
  if (pending.length > 0) throw new Error(`Could not settle ${pending.length} suppressions under concurrent changes`);
  return entries.map((entry) => results.get(entry.email) as AddedSuppression);
}

export type RemovalTarget = { ids: readonly string[] } | { emails: readonly string[] };

// The entries asked for are locked first, so that what is judged protected is what would be
// deleted; the delete happens only when none is, and then removes them all.
const REMOVE_SQL = (column: 'id' | 'email', type: 'uuid' | 'text') => `
WITH targeted AS (
  SELECT id, email, origin FROM suppressions WHERE account_id = $1 AND ${column} = ANY($2::${type}[]) FOR UPDATE
), refused AS (
  SELECT id, email FROM targeted WHERE origin = 'complaint' AND NOT $5::boolean
), deleted AS (
  DELETE FROM suppressions
  WHERE account_id = $1 AND id IN (SELECT id FROM targeted) AND NOT EXISTS (SELECT 1 FROM refused)
  RETURNING id, email
), numbered AS (
  SELECT id, email, row_number() OVER () AS n FROM deleted
), audited AS (
  INSERT INTO suppression_events (account_id, event_id, type, email, api_key_id, suppression_id, outcome, reason)
  SELECT $1, audit.id, 'removal', numbered.email, $3, numbered.id, 'removed', $6
  FROM numbered JOIN unnest($4::text[]) WITH ORDINALITY AS audit(id, n) USING (n)
)
SELECT id, email, false AS refused FROM deleted
UNION ALL
SELECT id, email, true FROM refused`;

const REMOVE_BY_IDS = REMOVE_SQL('id', 'uuid');
const REMOVE_BY_EMAILS = REMOVE_SQL('email', 'text');

export interface RemovalOptions {
  /** The key that asked for the removal, recorded with it; null for the service's own removals. */
  keyId: string | null;
  /** Removes entries a complaint put on the list too; without it, one such entry refuses the whole removal. */
  force: boolean;
  /** The caller's words, recorded with each removal. */
  reason: string | null;
}

/** What a removal did: the ids removed, in the order asked for, or the complaint entries that refused it. */
export type Removal = { removed: string[] } | { refused: { id: string; email: string }[] };

/**
 * Deletes the entries with these (lower-case) ids or normalised emails and records each removal,
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
  const { rows } = await db.query<{ id: string; email: string; refused: boolean }>({
    text: byIds ? REMOVE_BY_IDS : REMOVE_BY_EMAILS,
    values: [accountId, keys, options.keyId, keys.map(() => newId()), options.force, options.reason],
  });
  const refused = rows.filter((row) => row.refused);
  if (refused.length > 0) return { refused: refused.map(({ id, email }) => ({ id, email })) };
  const idByKey = new Map(rows.map((row) => [byIds ? row.id : row.email, row.id]));
  return { removed: keys.flatMap((key) => idByKey.get(key) ?? []) };
}
