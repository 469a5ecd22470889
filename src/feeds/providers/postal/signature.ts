import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { FeedVerificationError, headerValue } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/**
 * What a Postal feed's requests are verified with: the public half of the installation's signing key
 * (`signing.key`), as SPKI PEM.
 */
export interface PostalVerification {
  public_key: string;
}

const SIGNATURE_256_HEADER = 'x-postal-signature-256';
const SIGNATURE_HEADER = 'x-postal-signature';

/** The `p=` value of a DKIM record, its quoted strings joined as DNS joins a TXT record's. */
function dkimKey(record: string): string | null {
  const joined = record.replace(/"\s*"/g, '').replace(/"/g, '');
  const key = /(?:^|;)\s*p=([^;]*)/.exec(joined)?.[1]?.replace(/\s+/g, '');
  return key ? key : null;
}

function rsa(key: KeyObject): KeyObject | null {
  return key.type === 'public' && key.asymmetricKeyType === 'rsa' ? key : null;
}

/** A JWK, or a JWK set of one key, as Postal serves at /.well-known/jwks.json. */
function jwkKey(text: string): KeyObject | null {
  const data: unknown = JSON.parse(text);
  const keys = (data as { keys?: unknown }).keys;
  const jwk: unknown = Array.isArray(keys) ? (keys.length === 1 ? (keys[0] as unknown) : null) : data;
  if (typeof jwk !== 'object' || jwk === null) return null;
  return rsa(createPublicKey({ key: jwk as Record<string, string>, format: 'jwk' }));
}

/** Base64 DER, as SubjectPublicKeyInfo (the DKIM record's) or as PKCS#1. */
function derKey(base64: string): KeyObject | null {
  const der = Buffer.from(base64, 'base64');
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      return rsa(createPublicKey({ key: der, format: 'der', type }));
    } catch {
      // Not this encoding; the next is tried.
    }
  }
  return null;
}

/**
 * The public key of Postal's signing key as it may be given: PEM (`openssl rsa -in signing.key
 * -pubout`), the DKIM record `postal default-dkim-record` prints and the `postal._domainkey` TXT record
 * holds (or its `p=` value), or the JWK set of `/.well-known/jwks.json`. Null when it is none of
 * these, not RSA, or a private key.
 */
export function postalPublicKey(given: string): KeyObject | null {
  const trimmed = given.trim();
  try {
    if (trimmed.startsWith('{')) return jwkKey(trimmed);
    // A private key would give its public half, but it is Postal's secret and is not taken where it could be logged.
    if (trimmed.includes('PRIVATE KEY')) return null;
    if (trimmed.includes('-----BEGIN')) return rsa(createPublicKey(trimmed));
    const base64 = /(^|;)\s*p=/.test(trimmed.replace(/"/g, '')) ? dkimKey(trimmed) : trimmed.replace(/\s+/g, '');
    return base64 !== null && /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? derKey(base64) : null;
  } catch {
    return null;
  }
}

/**
 * Postal signs the raw body of each webhook with its signing key: RSA with SHA-256 in
 * `X-Postal-Signature-256`, and with SHA-1 in `X-Postal-Signature`, which is all that Postal
 * versions before the SHA-256 header send. The SHA-256 signature is checked when it is there; the
 * SHA-1 one only when it is not.
 */
export function verifyPostal(verification: PostalVerification, request: FeedRequest): void {
  const sha256 = headerValue(request.headers, SIGNATURE_256_HEADER);
  const sha1 = headerValue(request.headers, SIGNATURE_HEADER);
  const [algorithm, signature] = sha256 ? ['sha256', sha256] : ['sha1', sha1];
  if (!signature) {
    throw new FeedVerificationError(
      'signature',
      'the X-Postal-Signature-256 (or X-Postal-Signature) header is required',
    );
  }
  const key = postalPublicKey(verification.public_key);
  let valid: boolean;
  try {
    valid = key !== null && verify(algorithm, request.body, key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) throw new FeedVerificationError('signature', 'the signature does not match the body');
}
