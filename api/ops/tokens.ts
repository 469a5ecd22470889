import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';

/** Compares secrets in constant time (digests, so lengths never leak). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Whether the request presents the configured token. A client address over the failed-authentication
 * limit is refused with 429 `rate_limit_exceeded` before the token is compared, so that it cannot be
 * guessed at the speed of the network; a missing or wrong token counts against the address.
 */
export async function presentsToken(
  req: Request,
  given: string | undefined,
  expected: string,
  failureLimit: AuthFailureLimit | undefined,
): Promise<boolean> {
  if (failureLimit) await failureLimit.check(req);
  if (given !== undefined && sameSecret(given, expected)) return true;
  failureLimit?.recordFailure(req);
  return false;
}

export function bearerToken(req: Request): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.get('authorization') ?? '')?.[1];
}

export function basicPassword(req: Request): string | undefined {
  const encoded = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(req.get('authorization') ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

export function unauthorized(endpoint: string, credentials: string): AppError {
  return new AppError('unauthorized', errorMessage('unauthorized', { endpoint, credentials }));
}
