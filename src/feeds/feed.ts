import { randomBytes } from 'node:crypto';
import type { Provider } from './feed-mapping.js';

/** What each provider's requests are verified with, as stored. */
export interface VerificationOf {
  /** The SNS topics whose notifications the feed takes. */
  ses: { topic_arns: string[] };
  /** The Event Webhook's ECDSA P-256 public key, base64 DER as SendGrid shows it. */
  sendgrid: { public_key: string };
  /** The generated Basic credentials: the password only as its SHA-256 digest (hex). */
  postmark: { username: string; password_sha256: string };
  /** The HTTP webhook signing key. */
  mailgun: { signing_key: string };
  /** The Svix signing secret (`whsec_...`). */
  resend: { signing_secret: string };
}

interface FeedOf<P extends Provider> {
  id: string;
  accountId: string;
  provider: P;
  verification: VerificationOf[P];
  createdAt: Date;
}

/** A provider's webhook endpoint for one account, `POST /feeds/{id}`. */
export type Feed = { [P in Provider]: FeedOf<P> }[Provider];

export const FEED_ID_PATTERN = /^feed_[A-Za-z0-9_-]{32}$/;

/** `feed_` and 192 random bits: the path is the feed's address, so it must not be guessable. */
export function newFeedId(): string {
  return `feed_${randomBytes(24).toString('base64url')}`;
}

/** The path a provider is pointed at, below the service's base URL. */
export function feedPath(id: string): string {
  return `/feeds/${id}`;
}
