import { splitAddress } from '../return-paths/address.js';

/**
 * The domains the listener takes mail for: the bounce domains (`BOUNCE_DOMAINS`) and those whose
 * reports act without a return path (`MAIL_UNSIGNED_DOMAINS`), lower-case.
 */
export function acceptedDomains(
  bounceDomains: readonly string[],
  unsignedDomains: ReadonlyMap<string, string>,
): ReadonlySet<string> {
  return new Set([...bounceDomains, ...unsignedDomains.keys()].map((domain) => domain.toLowerCase()));
}

/**
 * Whether an envelope recipient is at one of `domains`, whatever its local part (`bounces`, a VERP
 * `bounces+<token>`, `fbl`) and however its domain is cased; a domain's final dot changes nothing.
 */
export function isAcceptedRecipient(address: string, domains: ReadonlySet<string>): boolean {
  const parts = splitAddress(address);
  return parts !== null && domains.has(parts.domain.replace(/\.$/, ''));
}
