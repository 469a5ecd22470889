import { randomBytes } from 'node:crypto';
import type { ScopeSource } from './message-scope.js';
import type { Provider, VerificationOf } from './providers/index.js';

interface FeedOf<P extends Provider> {
  id: string;
  accountId: string;
  provider: P;
  verification: VerificationOf[P];
  /** Where the scope of each message is read; null: every event is for the whole account. */
  scopeFrom: ScopeSource | null;
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
