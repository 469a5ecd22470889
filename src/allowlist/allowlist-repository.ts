import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, type KeysetQuery } from '../db/keyset-page.js';

/** A rule: an address, or a domain covering its addresses. */
export interface AllowlistRule {
  id: string;
  accountId: string;
  /** A normalised address, or a lower-case domain. */
  value: string;
  note: string | null;
  createdAt: Date;
}

interface RuleRow {
  id: string;
  account_id: string;
  value: string;
  note: string | null;
  created_at: Date;
}

const fromRow = (row: RuleRow): AllowlistRule => ({
  id: row.id,
  accountId: row.account_id,
  value: row.value,
  note: row.note,
  createdAt: row.created_at,
});

/**
 * The condition "a rule of the account covers this address", for SQL whose address is `email` and
 * whose account is `account`: the address's own rule, or its domain's, each one probe of the key.
 */
export const COVERED_BY_ALLOWLIST = (account: string, email: string): string =>
  `EXISTS (SELECT 1 FROM allowlist_rules allowed
           WHERE allowed.account_id = ${account} AND allowed.value IN (${email}, split_part(${email}, '@', 2)))`;

/** Adds a rule; an existing rule of the same value is kept as it is and returned. */
export async function addAllowlistRule(
  db: Queryable,
  rule: { id: string; accountId: string; value: string; note: string | null },
): Promise<{ rule: AllowlistRule; created: boolean }> {
  const { rows } = await db.query<RuleRow & { created: boolean }>({
    text: `WITH made AS (
             INSERT INTO allowlist_rules (id, account_id, value, note) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id, value) DO NOTHING
             RETURNING id, account_id, value, note, created_at
           )
           SELECT *, true AS created FROM made
           UNION ALL
           SELECT id, account_id, value, note, created_at, false FROM allowlist_rules
           WHERE account_id = $2 AND value = $3 AND NOT EXISTS (SELECT 1 FROM made)`,
    values: [rule.id, rule.accountId, rule.value, rule.note],
  });
  const row = rows[0] as RuleRow & { created: boolean };
  return { rule: fromRow(row), created: row.created };
}

/** How many of the account's entries (of any scope) a rule's value covers. */
export async function countCoveredEntries(db: Queryable, accountId: string, value: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>({
    // An address is one key of (account_id, email); a domain is the domain index's range.
    text: value.includes('@')
      ? 'SELECT count(*)::int AS count FROM suppressions WHERE account_id = $1 AND email = $2'
      : "SELECT count(*)::int AS count FROM suppressions WHERE account_id = $1 AND split_part(email, '@', 2) = $2",
    values: [accountId, value],
  });
  return rows[0]?.count ?? 0;
}

export interface RulePageQuery extends KeysetQuery<string> {
  accountId: string;
}

/** The account's rules, newest first, a keyset page at a time. */
export async function listAllowlistRules(
  db: Queryable,
  query: RulePageQuery,
): Promise<{ rules: AllowlistRule[]; hasMore: boolean }> {
  const values: unknown[] = [query.accountId];
  const plan = keysetPlan('id', query, values);
  const { rows } = await db.query<RuleRow>({
    text: `SELECT id, account_id, value, note, created_at FROM allowlist_rules
           WHERE account_id = $1 ${plan.condition} ORDER BY id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return { rules: page.rows.map(fromRow), hasMore: page.hasMore };
}

/** Removes a rule of the account; false when it has none of this id. */
export async function removeAllowlistRule(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query({
    text: 'DELETE FROM allowlist_rules WHERE account_id = $1 AND id = $2',
    values: [accountId, id],
  });
  return (rowCount ?? 0) > 0;
}

/** The rules of the account that cover any of these normalised addresses, with the address each covers. */
export async function coveringRules(
  db: Queryable,
  accountId: string,
  emails: readonly string[],
): Promise<{ email: string; rule: AllowlistRule }[]> {
  if (emails.length === 0) return [];
  const { rows } = await db.query<RuleRow & { email: string }>({
    text: `SELECT wanted.email, r.id, r.account_id, r.value, r.note, r.created_at
           FROM unnest($2::text[]) AS wanted(email)
           JOIN allowlist_rules r ON r.account_id = $1 AND r.value IN (wanted.email, split_part(wanted.email, '@', 2))
           ORDER BY wanted.email, length(r.value) DESC`,
    values: [accountId, emails],
  });
  return rows.map((row) => ({ email: row.email, rule: fromRow(row) }));
}
