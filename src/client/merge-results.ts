import { normalizeEmail } from '../domain/email.js';
import type { SuppressionResource } from '../contract/suppression.js';
import type { InvalidAddress, SuppressionCheckResult } from './check-result.js';

/** A part of the caller's input sent as one request, and where it starts in that input. */
export interface Chunk {
  offset: number;
  emails: readonly string[];
}

/** One chunk and the service's (verified) answer to it. */
export interface ChunkResult extends Chunk {
  result: SuppressionCheckResult;
}

/** What `filterSendable` returns. */
export interface SendableAddresses {
  /** Valid addresses that are not suppressed, normalised, each once, in input order. */
  sendable: string[];
  suppressed: SuppressionResource[];
  invalid: InvalidAddress[];
}

/** `emails` in consecutive chunks of at most `size` addresses (none for no addresses). */
export function splitIntoChunks(emails: readonly string[], size: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let offset = 0; offset < emails.length; offset += size) {
    chunks.push({ offset, emails: emails.slice(offset, offset + size) });
  }
  return chunks;
}

/** Every valid address of the chunks, normalised, in input order (with repeats), as the service judged them. */
function* validAddresses(chunks: readonly ChunkResult[]): Generator<string> {
  for (const { emails, result } of chunks) {
    const invalid = new Set(result.invalid.map(({ index }) => index));
    for (let index = 0; index < emails.length; index++) {
      if (!invalid.has(index)) yield normalizeEmail(emails[index] as string);
    }
  }
}

/**
 * The answers to the chunks of one input, in input order, as one answer to the whole input would be:
 * the same address in two chunks is counted and listed once, and invalid indexes are positions in the
 * whole input. Each chunk counted and listed only its own addresses, so the totals are worked out
 * again from the addresses rather than added up.
 */
export function mergeCheckResults(chunks: readonly ChunkResult[]): SuppressionCheckResult {
  const entries = new Map<string, SuppressionResource>();
  for (const { result } of chunks) {
    for (const entry of result.suppressed) if (!entries.has(entry.email)) entries.set(entry.email, entry);
  }
  const checked = new Set<string>();
  const suppressed: SuppressionResource[] = [];
  for (const email of validAddresses(chunks)) {
    if (checked.has(email)) continue;
    checked.add(email);
    const entry = entries.get(email);
    if (entry) suppressed.push(entry);
  }
  const invalid = chunks.flatMap(({ offset, result }) =>
    result.invalid.map(({ index, email, reason }) => ({ index: offset + index, email, reason })),
  );
  return { object: 'suppression_check', checked: checked.size, suppressed, invalid };
}

/**
 * The addresses of `emails` that may be mailed, given the check of exactly those addresses: every
 * address not invalid and not suppressed, normalised as the service stores it, each once.
 */
export function sendableOf(emails: readonly string[], result: SuppressionCheckResult): SendableAddresses {
  const invalid = new Set(result.invalid.map(({ index }) => index));
  const excluded = new Set(result.suppressed.map(({ email }) => email));
  const sendable: string[] = [];
  emails.forEach((raw, index) => {
    if (invalid.has(index)) return;
    const email = normalizeEmail(raw);
    if (excluded.has(email)) return;
    // Once taken, an address is excluded from the rest of the list like a suppressed one.
    excluded.add(email);
    sendable.push(email);
  });
  return { sendable, suppressed: result.suppressed, invalid: result.invalid };
}
