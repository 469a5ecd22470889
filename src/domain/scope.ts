/**
 * An entry belongs to the whole account (`null`) or to one named scope: a message stream, a
 * newsletter, a Postmark stream name. A check without a scope counts only entries of the whole
 * account; a check with one counts those and the scope's own.
 */
export type Scope = string | null;

/**
 * Where a complaint about a message of a named scope puts its address, as the account's settings
 * say: in that scope (`message`), or for the whole account (`global`).
 */
export const COMPLAINT_SCOPES = ['message', 'global'] as const;
export type ComplaintScope = (typeof COMPLAINT_SCOPES)[number];

export const SCOPE_PATTERN = /^[a-z0-9._-]{1,64}$/;

export const SCOPE_RULE = '1 to 64 characters of a-z, 0-9, `.`, `_` and `-`';

export function isScope(value: string): boolean {
  return SCOPE_PATTERN.test(value);
}

/** The database's value for a scope: the whole account is '' (see migration 0011). */
export function storedScope(scope: Scope): string {
  return scope ?? '';
}

export function scopeOfStored(stored: string): Scope {
  return stored === '' ? null : stored;
}
