import { createHash, randomBytes } from 'node:crypto';

export const PERMISSIONS = ['full_access', 'sending_access'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const TOKEN_PREFIX = 'sl_';

/** A new secret: 32 random bytes in base64url behind a recognisable prefix. Shown once, never stored. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^sl_[A-Za-z0-9_-]{43}$/;

/** Whether a presented token could be one this service issued; one that could not is never looked up. */
export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** What the database keeps instead of the token. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
