import { emailProblem } from '../../domain/email.js';
import { isScope } from '../../domain/scope.js';
import { messageReference, SECRET_BYTES, SECRET_ID_BYTES, writeReturnPathToken } from './token.js';

/** A return-path secret as a sender holds it: its id, and its 32 bytes. */
export interface ReturnPathSecret {
  id: Uint8Array;
  secret: Uint8Array;
}

/** What one return path is for, and where it goes. */
export interface ReturnPathRequest {
  /** Normalised (`normalizeEmail`) and valid. */
  recipient: string;
  scope?: string | null | undefined;
  /** The Message-ID of the message the return path goes on, with or without its angle brackets. */
  messageId?: string | null | undefined;
  /** `BOUNCE_LOCAL_PART`, such as `bounces`. */
  localPart: string;
  /** One of `BOUNCE_DOMAINS`. */
  domain: string;
}

/**
 * The return path of one message to one recipient: `<local part>+<token>@<domain>`. The service's
 * `POST /return-paths` and the client library's `makeReturnPath` both make it here, so that the two
 * agree byte for byte. Throws a RangeError for a request no return path can be made of.
 */
export function returnPathFor(secret: ReturnPathSecret, request: ReturnPathRequest): string {
  if (secret.id.length !== SECRET_ID_BYTES || secret.secret.length !== SECRET_BYTES) {
    throw new RangeError(`A return-path secret has a ${SECRET_ID_BYTES}-byte id and ${SECRET_BYTES} bytes.`);
  }
  const problem = emailProblem(request.recipient);
  if (problem !== null) throw new RangeError(`The recipient ${problem}.`);
  const scope = request.scope ?? null;
  if (scope !== null && !isScope(scope)) throw new RangeError('The scope is not a scope.');
  if (request.localPart.length === 0 || /[^a-z0-9._-]/.test(request.localPart)) {
    throw new RangeError('The local part must be lower-case letters, digits, `.`, `_` and `-`.');
  }
  if (request.domain.length === 0 || /[^a-z0-9.-]/.test(request.domain)) {
    throw new RangeError('The domain must be a lower-case domain name.');
  }
  const messageId = request.messageId ?? null;
  const token = writeReturnPathToken(secret.secret, {
    secretId: secret.id,
    scope,
    messageRef: messageId === null ? null : messageReference(messageId),
    recipient: request.recipient,
  });
  return `${request.localPart}+${token}@${request.domain}`;
}

/** An address's local part and domain, without angle brackets, or null when it has no `@`. */
export function splitAddress(address: string): { localPart: string; domain: string } | null {
  let bare = address.trim();
  if (bare.startsWith('<') && bare.endsWith('>')) bare = bare.slice(1, -1).trim();
  const at = bare.lastIndexOf('@');
  if (at <= 0 || at === bare.length - 1) return null;
  return { localPart: bare.slice(0, at), domain: bare.slice(at + 1).toLowerCase() };
}

/** The part of a local part after its first `+`, when it is all letters and digits. */
function tokenPart(localPart: string): string | null {
  const plus = localPart.indexOf('+');
  if (plus <= 0) return null;
  const token = localPart.slice(plus + 1);
  return /^[a-z0-9]+$/i.test(token) ? token : null;
}

/**
 * The token of a return path of ours, or null when the address is not one: a domain of
 * `bounceDomains`, and the local part `localPart` (in any case), `+` and the token.
 */
export function returnPathToken(
  address: string,
  place: { bounceDomains: readonly string[]; localPart: string },
): string | null {
  const parts = splitAddress(address);
  if (parts === null || !place.bounceDomains.some((domain) => domain.toLowerCase() === parts.domain)) return null;
  const plus = parts.localPart.indexOf('+');
  if (plus <= 0 || parts.localPart.slice(0, plus).toLowerCase() !== place.localPart.toLowerCase()) return null;
  return tokenPart(parts.localPart);
}

/**
 * The first of `addresses` (a report's recipients, its `To`, `Delivered-To`, `X-Original-To` or
 * envelope recipient, in the order the caller trusts them) that is at one of `bounceDomains` and
 * carries a `+token`, without angle brackets; null when none does. It is a candidate only: `verifyReturnPath` says whether it
 * is one of ours.
 */
export function findReturnPathIn(addresses: readonly string[], bounceDomains: readonly string[]): string | null {
  const domains = new Set(bounceDomains.map((domain) => domain.toLowerCase()));
  for (const address of addresses) {
    const parts = splitAddress(address);
    if (parts !== null && domains.has(parts.domain) && tokenPart(parts.localPart) !== null) {
      return `${parts.localPart}@${parts.domain}`;
    }
  }
  return null;
}
