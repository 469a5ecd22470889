import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isUuid } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';

/**
 * An unsubscribe link's token: the account in the clear (to find its key), then the address and the
 * scope sealed with AES-256-GCM under the account's unsubscribe secret, the account bound in as
 * associated data. Nothing in it can be read without the secret, and a token altered in any byte,
 * moved to another account, or made with a rotated secret does not open.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ACCOUNT_BYTES = 16;
const HEADER_BYTES = 1 + ACCOUNT_BYTES;

export interface UnsubscribeTarget {
  accountId: string;
  email: string;
  scope: Scope;
}

const accountBytes = (accountId: string): Buffer => Buffer.from(accountId.replace(/-/g, ''), 'hex');

function accountIdOf(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sealUnsubscribeToken(secret: Buffer, target: UnsubscribeTarget): string {
  const header = Buffer.concat([Buffer.from([VERSION]), accountBytes(target.accountId)]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  cipher.setAAD(header);
  const sealed = Buffer.concat([cipher.update(JSON.stringify([target.email, target.scope]), 'utf8'), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/**
 * The bytes a token spells, or null for what cannot be a token. Only the spelling this service
 * writes: base64url's last character carries bits that decoding drops, so other characters there
 * decode to the same bytes, and a link would answer under several spellings.
 */
function tokenBytes(token: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]{60,2000}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  return bytes.toString('base64url') === token ? bytes : null;
}

function headerAccount(bytes: Buffer): string | null {
  if (bytes.length <= HEADER_BYTES + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) return null;
  const accountId = accountIdOf(bytes.subarray(1, HEADER_BYTES));
  return isUuid(accountId) ? accountId : null;
}

/** The account a token names, read without its secret; null for what cannot be a token. */
export function tokenAccount(token: string): string | null {
  const bytes = tokenBytes(token);
  return bytes === null ? null : headerAccount(bytes);
}

/** The address and scope a token was sealed for, or null when it does not open with `secret`. */
export function openUnsubscribeToken(token: string, secret: Buffer): UnsubscribeTarget | null {
  const bytes = tokenBytes(token);
  const accountId = bytes === null ? null : headerAccount(bytes);
  if (bytes === null || accountId === null) return null;
  const iv = bytes.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
  const tag = bytes.subarray(HEADER_BYTES + IV_BYTES, HEADER_BYTES + IV_BYTES + TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, iv);
    decipher.setAAD(bytes.subarray(0, HEADER_BYTES));
    decipher.setAuthTag(tag);
    const text = Buffer.concat([
      decipher.update(bytes.subarray(HEADER_BYTES + IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    const [email, scope] = JSON.parse(text) as [string, Scope];
    return { accountId, email, scope };
  } catch {
    return null;
  }
}
