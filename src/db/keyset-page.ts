/** A page request of a newest-first list: `after` walks to older rows, `before` to newer ones. */
export interface KeysetQuery<Cursor> {
  limit: number;
  after?: Cursor | undefined;
  before?: Cursor | undefined;
}

export interface KeysetPlan {
  /** `AND <column> < $n` (or `>`), or nothing on the first page. */
  condition: string;
  /** `ORDER BY <column> <direction>`: a previous page is read oldest first, then turned around. */
  direction: 'ASC' | 'DESC';
  /** The LIMIT placeholder: one row more than the page, to know whether there is more. */
  limit: string;
}

/**
 * The SQL of a keyset page over `column`, pushing the cursor and the limit onto `values` (whose
 * earlier entries are the query's own parameters).
 */
export function keysetPlan<Cursor>(column: string, query: KeysetQuery<Cursor>, values: unknown[]): KeysetPlan {
  let condition = '';
  let direction: KeysetPlan['direction'] = 'DESC';
  if (query.after !== undefined) {
    values.push(query.after);
    condition = `AND ${column} < $${values.length}`;
  } else if (query.before !== undefined) {
    values.push(query.before);
    condition = `AND ${column} > $${values.length}`;
    direction = 'ASC';
  }
  values.push(query.limit + 1);
  return { condition, direction, limit: `$${values.length}` };
}

/** The page out of the rows a `keysetPlan` query read: newest first, and whether more lie beyond it. */
export function keysetPage<Row>(
  rows: readonly Row[],
  limit: number,
  plan: KeysetPlan,
): { rows: Row[]; hasMore: boolean } {
  const page = rows.slice(0, limit);
  if (plan.direction === 'ASC') page.reverse();
  return { rows: page, hasMore: rows.length > limit };
}

/** A cursor that names nothing in the list it pages: the caller answers it as a bad parameter. */
export class UnknownCursorError extends Error {
  constructor(readonly parameter: 'after' | 'before') {
    super(`no such ${parameter} cursor`);
    this.name = 'UnknownCursorError';
  }
}
