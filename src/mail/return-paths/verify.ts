import type { Queryable } from '../../db/database.js';
import { emailProblem, normalizeEmail } from '../../domain/email.js';
import { isScope, type Scope } from '../../domain/scope.js';
import { returnPathToken } from './address.js';
import { findReturnPathSecret } from './secret-repository.js';
import { messageReference, readReturnPathToken, signedWith } from './token.js';

/** Where the service's return paths are: `BOUNCE_DOMAINS` and `BOUNCE_LOCAL_PART`. */
export interface ReturnPathPlace {
  bounceDomains: readonly string[];
  localPart: string;
}

export interface VerifiedReturnPath {
  ok: true;
  accountId: string;
  /** The recipient the message was sent to, as the return path was made for it. */
  recipient: string;
  scope: Scope;
  /** `messageReferenceOf` of the message's Message-ID (12 hex digits), or null when none was given. */
  messageRef: string | null;
  /** The id of the secret that signed it (8 hex digits). */
  secretId: string;
}

/**
 * Why an address is not a return path the service made:
 * - `not_a_return_path`: not at a bounce domain, or not `<local part>+<letters and digits>`;
 * - `malformed`: the token is not one (base32, version, lengths, contents);
 * - `unknown_secret`: no secret has the id it names;
 * - `bad_signature`: the secret it names did not sign it (forged, altered, or another account's);
 * - `retired_secret`: signed by a secret rotated away longer ago than its overlap.
 */
export type ReturnPathProblem =
  'not_a_return_path' | 'malformed' | 'unknown_secret' | 'bad_signature' | 'retired_secret';

/**
 * The message reference of a Message-ID as a verified return path gives it (12 hex digits): a report
 * that encloses the original message is about the message of the return path when its Message-ID
 * gives the same.
 */
export function messageReferenceOf(messageId: string): string {
  return messageReference(messageId).toString('hex');
}

export type ReturnPathVerification = VerifiedReturnPath | { ok: false; problem: ReturnPathProblem };

/**
 * Whose mail an address a bounce or a complaint came to is about, when that address is a return
 * path the service signed: only then may the report suppress anyone. The token is read whatever its
 * case; its tag is compared in constant time; `now` is when the report arrived.
 */
export async function verifyReturnPath(
  db: Queryable,
  address: string,
  options: ReturnPathPlace & { now: Date },
): Promise<ReturnPathVerification> {
  const token = returnPathToken(address, options);
  if (token === null) return { ok: false, problem: 'not_a_return_path' };
  const read = readReturnPathToken(token);
  if (read === null) return { ok: false, problem: 'malformed' };
  const secret = await findReturnPathSecret(db, read.fields.secretId);
  if (secret === null) return { ok: false, problem: 'unknown_secret' };
  if (!signedWith(read, secret.secret)) return { ok: false, problem: 'bad_signature' };
  // Judged only once the signature holds, so that a forgery never learns that a secret was retired.
  if (secret.validUntil !== null && options.now.getTime() >= secret.validUntil.getTime()) {
    return { ok: false, problem: 'retired_secret' };
  }
  const { recipient, scope, messageRef } = read.fields;
  // What the service signed is always well formed; anything else is refused all the same.
  if (normalizeEmail(recipient) !== recipient || emailProblem(recipient) !== null)
    return { ok: false, problem: 'malformed' };
  if (scope !== null && !isScope(scope)) return { ok: false, problem: 'malformed' };
  return {
    ok: true,
    accountId: secret.accountId,
    recipient,
    scope,
    messageRef: messageRef === null ? null : Buffer.from(messageRef).toString('hex'),
    secretId: secret.id.toString('hex'),
  };
}
