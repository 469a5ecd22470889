import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { FeedVerificationError, headerValue } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/**
 * What a KumoMTA feed's requests are verified with: the generated credentials, the password only as
 * its SHA-256 digest (hex).
 */
export interface KumoMtaVerification {
  username: string;
  password_sha256: string;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** New credentials for a KumoMTA log hook: the password to show once, and what is stored. */
export function newKumoMtaCredentials(): { username: string; password: string; stored: KumoMtaVerification } {
  const username = `kumomta-${randomBytes(6).toString('hex')}`;
  const password = randomBytes(24).toString('base64url');
  return { username, password, stored: { username, password_sha256: sha256(password).toString('hex') } };
}

/** The user name and password of the Authorization header; a bearer token is the password alone. */
function presented(authorization: string): { username: string | null; password: string } | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (basic) {
    const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon === -1
      ? { username: decoded, password: '' }
      : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return bearer ? { username: null, password: bearer[1] as string } : null;
}

/**
 * KumoMTA's HTTP client authenticates a log hook's requests as its policy says:
 * `request:basic_auth(username, password)` or `request:bearer_auth(password)`. Both parts are
 * compared as digests of equal length, so the comparison takes the same time whatever is sent.
 */
export function verifyKumoMta(verification: KumoMtaVerification, request: FeedRequest): void {
  const given = presented(headerValue(request.headers, 'authorization') ?? '');
  if (given === null) throw new FeedVerificationError('credentials', 'the request has no Basic or Bearer credentials');
  const userMatches = given.username === null || timingSafeEqual(sha256(given.username), sha256(verification.username));
  const passwordMatches = timingSafeEqual(sha256(given.password), Buffer.from(verification.password_sha256, 'hex'));
  if (!(userMatches && passwordMatches)) {
    throw new FeedVerificationError('credentials', 'the credentials are not this feed’s');
  }
}
