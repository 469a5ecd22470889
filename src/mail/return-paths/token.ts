import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { base32nopad } from '@scure/base';
import type { Scope } from '../../domain/scope.js';

/**
 * The token of a VERP return path (`bounces+<token>@bounces.example.com`): who was mailed, by which
 * account, in which scope, with which message, signed with HMAC-SHA-256 under the account's
 * return-path secret. The bytes, in order (docs/mail.md has the worked example):
 *
 *   version (1) · secret id (4) · flags (1) · scope (0-64) · message reference (0 or 6) · recipient · tag (10)
 *
 * The flags byte holds the scope's length in its low 7 bits (0: no scope, the whole account) and,
 * in its high bit, whether a message reference follows the scope. The recipient takes what is left
 * before the tag, which is the first 10 bytes (80 bits) of the HMAC of every byte before it. The
 * whole is written in RFC 4648 base32, lower-case, without padding: letters and digits only, which
 * no mail system mangles, and read whatever its case, since some lower-case a local part.
 */
export const RETURN_PATH_VERSION = 1;
export const SECRET_ID_BYTES = 4;
export const SECRET_BYTES = 32;
export const MESSAGE_REF_BYTES = 6;
export const TAG_BYTES = 10;
const HAS_MESSAGE_REF = 0x80;
const SCOPE_LENGTH_MASK = 0x7f;
const HEADER_BYTES = 1 + SECRET_ID_BYTES + 1;
/** The longest token: a 64-character scope, a message reference and a 254-character recipient. */
const MAX_TOKEN_BYTES = HEADER_BYTES + 64 + MESSAGE_REF_BYTES + 254 + TAG_BYTES;
const MAX_TOKEN_CHARS = Math.ceil((MAX_TOKEN_BYTES * 8) / 5);

/** What a return path says, its secret's id included. */
export interface ReturnPathFields {
  secretId: Uint8Array;
  scope: Scope;
  /** `messageReference()` of the message's Message-ID, or null when the sender gave none. */
  messageRef: Uint8Array | null;
  /** The recipient, normalised (`normalizeEmail`). */
  recipient: string;
}

/** A token's fields as read, before its signature is checked. */
export interface ReadToken {
  fields: ReturnPathFields;
  /** The bytes the tag signs. */
  signed: Buffer;
  tag: Buffer;
}

/**
 * The message reference of a Message-ID: the first 6 bytes of SHA-256 of the id, trimmed and without
 * its angle brackets, as UTF-8. `<a1b2@mail.example.com>` and `a1b2@mail.example.com` give the same.
 */
export function messageReference(messageId: string): Buffer {
  const trimmed = messageId.trim();
  const bare = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
  return createHash('sha256').update(bare, 'utf8').digest().subarray(0, MESSAGE_REF_BYTES);
}

function tagOf(secret: Uint8Array, signed: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(signed).digest().subarray(0, TAG_BYTES);
}

/** The token of `fields`, signed with `secret`. */
export function writeReturnPathToken(secret: Uint8Array, fields: ReturnPathFields): string {
  if (fields.secretId.length !== SECRET_ID_BYTES) throw new RangeError(`A secret id is ${SECRET_ID_BYTES} bytes.`);
  if (secret.length !== SECRET_BYTES) throw new RangeError(`A return-path secret is ${SECRET_BYTES} bytes.`);
  const scope = Buffer.from(fields.scope ?? '', 'ascii');
  if (scope.length > SCOPE_LENGTH_MASK) throw new RangeError('A scope is at most 64 characters.');
  const messageRef = fields.messageRef ?? new Uint8Array(0);
  if (fields.messageRef !== null && messageRef.length !== MESSAGE_REF_BYTES) {
    throw new RangeError(`A message reference is ${MESSAGE_REF_BYTES} bytes.`);
  }
  const flags = scope.length | (fields.messageRef === null ? 0 : HAS_MESSAGE_REF);
  const signed = Buffer.concat([
    Buffer.from([RETURN_PATH_VERSION]),
    fields.secretId,
    Buffer.from([flags]),
    scope,
    messageRef,
    Buffer.from(fields.recipient, 'ascii'),
  ]);
  return base32nopad.encode(Buffer.concat([signed, tagOf(secret, signed)])).toLowerCase();
}

function decodeBase32(token: string): Buffer | null {
  if (token.length === 0 || token.length > MAX_TOKEN_CHARS || !/^[a-z2-7]+$/i.test(token)) return null;
  try {
    // Only the one spelling this writes (case aside): a last character with bits that decoding
    // would drop set to anything but 0 is refused, so no token has two spellings.
    return Buffer.from(base32nopad.decode(token.toUpperCase()));
  } catch {
    return null;
  }
}

/** The fields of a token, or null for what cannot be one of version 1. Its signature is not checked. */
export function readReturnPathToken(token: string): ReadToken | null {
  const bytes = decodeBase32(token);
  if (bytes === null || bytes.length < HEADER_BYTES + 1 + TAG_BYTES || bytes[0] !== RETURN_PATH_VERSION) return null;
  const flags = bytes[HEADER_BYTES - 1] as number;
  const scopeEnd = HEADER_BYTES + (flags & SCOPE_LENGTH_MASK);
  const refEnd = scopeEnd + (flags & HAS_MESSAGE_REF ? MESSAGE_REF_BYTES : 0);
  const tagStart = bytes.length - TAG_BYTES;
  if (refEnd >= tagStart) return null;
  return {
    fields: {
      secretId: bytes.subarray(1, 1 + SECRET_ID_BYTES),
      scope: scopeEnd === HEADER_BYTES ? null : bytes.subarray(HEADER_BYTES, scopeEnd).toString('latin1'),
      messageRef: refEnd === scopeEnd ? null : bytes.subarray(scopeEnd, refEnd),
      recipient: bytes.subarray(refEnd, tagStart).toString('latin1'),
    },
    signed: bytes.subarray(0, tagStart),
    tag: bytes.subarray(tagStart),
  };
}

/** Whether `secret` signed the token, compared in constant time. */
export function signedWith(read: ReadToken, secret: Uint8Array): boolean {
  return timingSafeEqual(tagOf(secret, read.signed), read.tag);
}
