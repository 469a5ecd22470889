import type { FeedProvider } from '../feed-provider.js';
import { kumomta } from './kumomta/provider.js';
import { mailgun } from './mailgun/provider.js';
import { postal } from './postal/provider.js';
import { postmark } from './postmark/provider.js';
import { resend } from './resend/provider.js';
import { sendgrid } from './sendgrid/provider.js';
import { ses } from './ses/provider.js';

/**
 * Every provider a feed can be made for, in the order `feeds create` lists them. The provider names,
 * their verification types, the options of `feeds create` and the receiving of requests all derive
 * from this list: a provider is its folder beside this file and its line here (and its name in the
 * `feeds.provider` check of the database).
 */
export const FEED_PROVIDERS = [ses, sendgrid, postmark, mailgun, resend, kumomta, postal] as const;

type Registered = (typeof FEED_PROVIDERS)[number];

export type Provider = Registered['name'];

export const PROVIDERS: readonly Provider[] = FEED_PROVIDERS.map((provider) => provider.name);

/** What each provider's requests are verified with, as stored, by provider name. */
export type VerificationOf = {
  [P in Registered as P['name']]: P extends FeedProvider<string, infer Verification> ? Verification : never;
};

const BY_NAME = new Map<string, Registered>(FEED_PROVIDERS.map((provider) => [provider.name, provider]));

/** The provider of this name; one not registered is a programming error, as the database admits none. */
export function feedProvider<P extends Provider>(name: P): FeedProvider<P, VerificationOf[P]> {
  const provider = BY_NAME.get(name);
  if (provider === undefined) throw new Error(`No feed provider is named "${name}".`);
  return provider as unknown as FeedProvider<P, VerificationOf[P]>;
}
