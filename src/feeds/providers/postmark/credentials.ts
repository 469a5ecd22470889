import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { FeedVerificationError, headerValue } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/**
 * What a Postmark feed's requests are verified with: the generated Basic credentials, the password
 * only as its SHA-256 digest (hex).
 */
export interface PostmarkVerification {
  username: string;
  password_sha256: string;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** New Basic credentials for a Postmark webhook: the password to show once, and what is stored. */
export function newPostmarkCredentials(): { username: string; password: string; stored: PostmarkVerification } {
  const username = `postmark-${randomBytes(6).toString('hex')}`;
  const password = randomBytes(24).toString('base64url');
  return { username, password, stored: { username, password_sha256: sha256(password).toString('hex') } };
}

/**
 * Postmark authenticates with the Basic credentials given in the webhook's URL. Both parts are
 * compared as digests of equal length, so the comparison takes the same time whatever is sent.
 */
export function verifyPostmark(verification: PostmarkVerification, request: FeedRequest): void {
  const authorization = headerValue(request.headers, 'authorization') ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) throw new FeedVerificationError('credentials', 'the request has no Basic credentials');
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon === -1 ? decoded : decoded.slice(0, colon);
  const password = colon === -1 ? '' : decoded.slice(colon + 1);
  const userMatches = timingSafeEqual(sha256(username), sha256(verification.username));
  const passwordMatches = timingSafeEqual(sha256(password), Buffer.from(verification.password_sha256, 'hex'));
  if (!(userMatches && passwordMatches)) {
    throw new FeedVerificationError('credentials', 'the Basic credentials are not this feed’s');
  }
}
