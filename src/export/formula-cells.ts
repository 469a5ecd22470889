import type { Options } from 'csv-stringify';

/**
 * The first characters on which a spreadsheet reads a cell as a formula: OWASP's `=`, `+`, `-`,
 * `@`, tab and carriage return, and the full-width `＝`, `＋`, `－` and `＠`, which Apple Numbers
 * takes for the ASCII ones. It is the list csv-stringify's `escape_formulas` prefixes, so that
 * every cell it prefixes is quoted too.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * OWASP's advice for CSV injection: such a cell gets a `'` in front, which a spreadsheet shows as
 * text rather than runs, and is quoted. Every column is covered: an address may begin with `=`,
 * `+` or `-` and a scope with `-`, and the others (ids, the origin, the time) never match, so
 * they pass unchanged.
 */
export const FORMULA_ESCAPING = { escape_formulas: true, quoted_match: FORMULA_START } satisfies Options;
