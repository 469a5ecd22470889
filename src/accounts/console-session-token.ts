import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from './api-key-token.js';

/** A session cookie's value or a CSRF token: 32 random bytes in base64url. */
export function generateSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a presented cookie could be one this service set; one that could not is never looked up. */
export function isWellFormedSessionSecret(value: string): boolean {
  return SECRET_SHAPE.test(value);
}

/** What the database keeps instead of the cookie's value: its SHA-256, as for an API key. */
export const hashSessionSecret: (value: string) => Buffer = hashToken;

/** Compares two secrets in time that does not depend on where they differ (or on their lengths). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(hashSessionSecret(presented), hashSessionSecret(expected));
}
