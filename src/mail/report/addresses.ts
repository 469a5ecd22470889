// RFC 5321 allows 64 octets of local part, but VERP return paths (this service's among them) run
// longer and mail systems carry them: the bound is the 256 octets of a whole path.
const MAX_LOCAL = 256;
const MAX_DOMAIN = 253;

function isLocalChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    "._%+=/'!#$&*?^`{|}~-".includes(String.fromCharCode(code))
  );
}

function isDomainChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 46
  );
}

/** An address with its domain lower-cased, or null when it has no local part or no dotted domain. */
export function normalizeAddress(value: string): string | null {
  let text = value.trim();
  if (text.startsWith('<') && text.endsWith('>')) text = text.slice(1, -1).trim();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return null;
  const local = text.slice(0, at);
  let end = text.length;
  while (end > at + 1 && text[end - 1] === '.') end -= 1;
  const domain = text.slice(at + 1, end);
  if (!domain.includes('.') || /\s/.test(local)) return null;
  return `${local}@${domain.toLowerCase()}`;
}

export interface FoundAddress {
  address: string;
  /** Where the address starts in the text. */
  start: number;
  /** Where it ends (exclusive). */
  end: number;
}

/**
 * Every address in the text, in order. Found by walking out from each `@` over the characters an
 * address may hold (bounded by RFC 5321's lengths), so the work is linear in the text whatever it holds.
 */
export function findAddresses(text: string): FoundAddress[] {
  const found: FoundAddress[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('@', from);
    if (at < 0) break;
    from = at + 1;
    let start = at;
    while (start > 0 && at - start < MAX_LOCAL && isLocalChar(text.charCodeAt(start - 1))) start -= 1;
    let end = at + 1;
    while (end < text.length && end - at <= MAX_DOMAIN && isDomainChar(text.charCodeAt(end))) end += 1;
    while (start < at && text[start] === '.') start += 1;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
    if (start === at || end === at + 1) continue;
    const address = normalizeAddress(text.slice(start, end));
    if (address === null) continue;
    found.push({ address, start, end });
    from = end;
  }
  return found;
}

/** The first address of a header or field value (`Name <x@y>`, `rfc822; x@y`), or null. */
export function firstAddress(value: string | null | undefined): string | null {
  if (!value) return null;
  return findAddresses(value)[0]?.address ?? null;
}

/** Addresses compared as the service compares them: the whole address, case aside. */
export function sameAddress(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}
