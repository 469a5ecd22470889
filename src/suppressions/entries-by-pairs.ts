import { COVERED_BY_ALLOWLIST } from '../allowlist/allowlist-repository.js';
import type { CachedEntry } from '../check-filter/entry-cache.js';
import type { Queryable } from '../db/database.js';
import { COLUMNS, fromRow } from './suppression-repository.js';
import type { Suppression } from './suppression.js';

/**
 * Triples of (account, value, stored scope) to look up at once: `accountIds[i]` with `values[i]`
 * and `scopes[i]`.
 */
export interface AccountValues {
  accountIds: readonly string[];
  values: readonly string[];
  scopes: readonly string[];
}

/** What was found for the triple at position `at` of those asked (from 0). */
export interface Positioned<T> {
  at: number;
  item: T;
}

/**
 * How an address's entries are matched to the scope asked for: `exact` finds the entry of that
 * scope only (retrieve, remove); `sending` the entry of that scope that stops a send (the check
 * without a scope); `covering` the entry that stops a send in that scope, the whole account's first,
 * else the scope's own (the check with one). An allowlisted address stops no send, but for the
 * recipient's own unsubscribe.
 */
export type ScopeMatch = 'exact' | 'sending' | 'covering';

const STOPS_SENDS = `(origin = 'unsubscribe' OR NOT ${COVERED_BY_ALLOWLIST('wanted.account_id', 'wanted.value')})`;

const PROBE_BY_EMAIL: Record<ScopeMatch, string> = {
  exact: 'email = wanted.value AND scope = wanted.scope',
  sending: `email = wanted.value AND scope = wanted.scope AND ${STOPS_SENDS}`,
  // '' (the whole account) sorts before any named scope.
  covering: `email = wanted.value AND scope IN ('', wanted.scope) AND ${STOPS_SENDS} ORDER BY scope`,
};

/**
 * An entry as `toSuppressionResource` shows it, written by PostgreSQL as JSON text, byte for byte
 * what `JSON.stringify` makes of that resource: the check answers with it as it is, since parsing
 * a found row's seven columns (its time into a `Date`) and writing them out again was a fifth of
 * the check's CPU when a tenth of its addresses were on the list. `created_at` is cut to the
 * millisecond, as `toISOString` shows it.
 */
const RESOURCE_JSON = `concat(
  '{"object":"suppression","id":"', s.id,
  '","email":', to_json(s.email),
  ',"origin":', to_json(s.origin),
  ',"source_id":', coalesce(to_json(s.source_id)::text, 'null'),
  ',"scope":', coalesce(to_json(nullif(s.scope, ''))::text, 'null'),
  ',"created_at":"', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"}')`;

/**
 * The first entry that `probe` finds for each triple, of any number of accounts, in no particular
 * order: one round trip. A lateral probe per triple, which LIMIT 1 keeps from being turned into a
 * join: joined, the planner may hash the whole table; probed, each triple costs one index lookup
 * however large the account. Each row says which triple it answers by its position.
 */
async function findByPairs<Row, T>(
  db: Queryable,
  query: { name: string; probe: string; type: 'uuid' | 'text'; columns: string },
  pairs: AccountValues,
  itemOf: (row: Row) => T,
): Promise<Positioned<T>[]> {
  const { rows } = await db.query<Row & { at: number }>({
    name: query.name,
    text: `SELECT wanted.at::int - 1 AS at, ${query.columns}
           FROM unnest($1::uuid[], $2::${query.type}[], $3::text[]) WITH ORDINALITY AS wanted(account_id, value, scope, at)
           CROSS JOIN LATERAL (
             SELECT ${COLUMNS} FROM suppressions
             WHERE account_id = wanted.account_id AND ${query.probe} LIMIT 1
           ) s`,
    values: [pairs.accountIds, pairs.values, pairs.scopes],
  });
  return rows.map((row) => ({ at: row.at, item: itemOf(row) }));
}

const ENTRY_COLUMNS = 's.id, s.account_id, s.email, s.origin, s.source_id, s.scope, s.created_at';

/** The entries of these (account, normalised address, scope) triples; see `findByPairs`. */
export function findSuppressionsByEmails(
  db: Queryable,
  pairs: AccountValues,
  match: ScopeMatch,
): Promise<Positioned<Suppression>[]> {
  const query = { name: `suppressions-by-emails-${match}`, probe: PROBE_BY_EMAIL[match], type: 'text' as const };
  return findByPairs(db, { ...query, columns: ENTRY_COLUMNS }, pairs, fromRow);
}

/** The entries of these (account, id) pairs, whatever their scope; see `findByPairs`. */
export function findSuppressionsByIds(db: Queryable, pairs: AccountValues): Promise<Positioned<Suppression>[]> {
  const query = { name: 'suppressions-by-ids', probe: 'id = wanted.value', type: 'uuid' as const };
  return findByPairs(db, { ...query, columns: ENTRY_COLUMNS }, pairs, fromRow);
}

/**
 * An entry that stops a send, as the check answers with it and its entry cache keeps it: its
 * address, and its resource as JSON text.
 */
export type StoppingEntry = CachedEntry;

/** The entries that stop a send to these triples (`sending` or `covering`), as the check answers with them. */
export function findStoppingEntries(
  db: Queryable,
  pairs: AccountValues,
  match: Exclude<ScopeMatch, 'exact'>,
): Promise<Positioned<StoppingEntry>[]> {
  const query = { name: `stopping-entries-${match}`, probe: PROBE_BY_EMAIL[match], type: 'text' as const };
  return findByPairs<StoppingEntry, StoppingEntry>(
    db,
    { ...query, columns: `s.email, ${RESOURCE_JSON} AS resource` },
    pairs,
    (row) => ({ email: row.email, resource: row.resource }),
  );
}
