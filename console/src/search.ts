import { emailProblem, normalizeEmail } from '../../src/domain/email.js';

/**
 * The list's filters from the one search box: `@example.com` or `example.com` is a domain,
 * `jane@example.com` an address, `jane*` the addresses that start with `jane`, and a bare word the
 * addresses that start with it.
 */
export function searchFilters(text: string): Record<string, string> {
  const query = text.trim();
  if (query === '') return {};
  if (query.startsWith('@')) return { domain: query.slice(1) };
  if (query.includes('@') || query.endsWith('*')) return { email: query };
  if (query.includes('.')) return { domain: query };
  return { email: `${query}*` };
}

/**
 * The one whole address a search names (`jane@example.com`, normalised as the service stores it),
 * whose history the list shows beside its entries; null for a prefix, a domain, or what no address is.
 */
export function searchedAddress(text: string): string | null {
  const email = normalizeEmail(text);
  return email.includes('*') || emailProblem(email) !== null ? null : email;
}
