import { MAX_EMAIL_LENGTH, emailProblem, normalizeEmail } from '../domain/email.js';

/** The list's `email` filter: one address, or every address that starts with a prefix. */
export type EmailFilter = { exact: string } | { prefix: string };

// The characters of the address grammar (src/domain/email.ts): a prefix of any other text matches
// nothing, so it is refused as a mistake rather than answered with an empty list.
const PREFIX_PATTERN = /^[a-z0-9.!#$%&'*+/=?^_`{|}~@-]+$/;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// A domain as an address's domain part may be: labels of letters, digits and hyphens, at least two.
const DOMAIN_PATTERN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
const MAX_DOMAIN_LENGTH = 253;

/**
 * `jane@example.com` (normalised, and valid) or `jane*` (a prefix: normalised the same way, but
 * not necessarily a whole address). Returns the filter, or why the value is not one.
 */
export function parseEmailFilter(raw: string): EmailFilter | { problem: string } {
  const value = normalizeEmail(raw);
  const star = value.indexOf('*');
  if (star === -1) {
    const problem = emailProblem(value);
    return problem === null ? { exact: value } : { problem: `${problem} (a prefix search ends in \`*\`)` };
  }
  if (star !== value.length - 1) return { problem: 'may contain `*` only as its last character' };
  const prefix = value.slice(0, -1);
  if (prefix.length === 0) return { problem: 'needs at least one character before `*`' };
  if (prefix.length > MAX_EMAIL_LENGTH) return { problem: `is longer than ${MAX_EMAIL_LENGTH} characters` };
  if (!PREFIX_PATTERN.test(prefix)) return { problem: 'has a character no email address contains' };
  return { prefix };
}

/** Trimmed and lower-cased as an address is; null when it cannot be the domain of an address. */
export function normalizeDomain(raw: string): string | null {
  // The address's rule, so that no non-ASCII character is lower-cased into an ASCII letter.
  const domain = normalizeEmail(raw);
  return domain.length <= MAX_DOMAIN_LENGTH && DOMAIN_PATTERN.test(domain) ? domain : null;
}
