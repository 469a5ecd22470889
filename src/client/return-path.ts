import { normalizeEmail } from '../domain/email.js';
import { returnPathFor } from '../mail/return-paths/address.js';
import { SECRET_BYTES, SECRET_ID_BYTES } from '../mail/return-paths/token.js';

/** The account's return-path secret as `GET /return-paths/secret` answers it. */
export interface ReturnPathSecretInput {
  /** `id`: 8 hex digits. */
  id: string;
  /** `secret`: 32 bytes in base64url, or the bytes themselves. */
  secret: string | Uint8Array;
}

export interface ReturnPathOptions {
  /** The recipient; trimmed and lower-cased as the service does. */
  recipient: string;
  /** The scope the message is sent in; absent or null for the whole account. */
  scope?: string | null;
  /** The message's Message-ID, with or without its angle brackets. */
  messageId?: string | null;
  /** `local_part` of the secret's answer (`BOUNCE_LOCAL_PART`). */
  localPart: string;
  /** One of `domains` of the secret's answer (`BOUNCE_DOMAINS`). */
  domain: string;
}

function secretBytes(secret: string | Uint8Array): Uint8Array {
  if (typeof secret !== 'string') return secret;
  const bytes = /^[A-Za-z0-9_-]+$/.test(secret) ? Buffer.from(secret, 'base64url') : Buffer.alloc(0);
  if (bytes.length !== SECRET_BYTES || bytes.toString('base64url') !== secret) {
    throw new RangeError(`The return-path secret must be ${SECRET_BYTES} bytes in base64url, as the API answers it.`);
  }
  return bytes;
}

function secretId(id: string): Uint8Array {
  if (!new RegExp(`^[0-9a-f]{${SECRET_ID_BYTES * 2}}$`, 'i').test(id)) {
    throw new RangeError(
      `The return-path secret's id must be ${SECRET_ID_BYTES * 2} hex digits, as the API answers it.`,
    );
  }
  return Buffer.from(id, 'hex');
}

/**
 * The VERP return path (the envelope sender, `MAIL FROM`) of one message to one recipient, made
 * locally from the account's return-path secret: no request, and the very address
 * `POST /return-paths` answers for the same recipient, scope and Message-ID. Bounces and complaints
 * that come back to it are known to be about that recipient; forged ones naming anyone else are not.
 * Throws a RangeError for a recipient that is not an address, a scope that is not one, or a secret
 * not as the API answers it.
 */
export function makeReturnPath(secret: ReturnPathSecretInput, options: ReturnPathOptions): string {
  return returnPathFor(
    { id: secretId(secret.id), secret: secretBytes(secret.secret) },
    {
      recipient: normalizeEmail(options.recipient),
      scope: options.scope ?? null,
      messageId: options.messageId ?? null,
      localPart: options.localPart.toLowerCase(),
      domain: options.domain.toLowerCase(),
    },
  );
}
