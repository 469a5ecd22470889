import type { Logger } from '../logger.js';
import { FeedSettingsError } from './feed-errors.js';
import type { Delivery, FeedMapper } from './feed-mapping.js';
import type { FeedRequest } from './feed-request.js';
import type { ScopeSourceKind } from './message-scope.js';
import type { SnsClient } from './sns/certificates.js';

// The settings' types live here, not beside the functions of feed-settings.ts that read the registry,
// so that a provider's module never imports the registry back.
/** What `feeds create` is given beyond the account and provider, by each option's `key`. */
export type FeedSettingsInput = Readonly<Partial<Record<string, string | readonly string[]>>>;

/** One option of `feeds create` that a provider takes. */
export interface FeedOption {
  /** Its name in FeedSettingsInput: `publicKey`. */
  key: string;
  /** The flag and its argument, as `feeds create --help` shows them: `--public-key <base64>`. */
  flags: string;
  description: string;
  /** Given once per value, and read as a list. */
  repeatable?: boolean;
}

/** A new feed's verification, and what to show its creator: the provider's fields of `--json`. */
export interface FeedSettings<Verification = unknown> {
  verification: Verification;
  shown: Record<string, string | string[]>;
}

/** What a provider needs of `feeds create`, and what the command says once the feed exists. */
export interface ProviderSettings<Verification> {
  options: readonly FeedOption[];
  /** Checks the options and turns them into what requests are verified with; throws FeedSettingsError. */
  create(input: FeedSettingsInput): FeedSettings<Verification>;
  /** The lines printed after the feed's path: how to point the provider at it. */
  hints: readonly string[];
}

/** What a provider's verification may need besides the request. */
export interface VerifyContext {
  feedId: string;
  /** SNS's certificates and subscription confirmations. */
  sns: SnsClient;
  logger: Logger;
}

/** A request proven to be the provider's. */
export interface Verified {
  /** The payload to map (the body, or the message inside an envelope); null when the request carries no events. */
  text: string | null;
  delivery: Delivery;
  /**
   * A token signed into the request once: reserved before its events are queued, refused while
   * reserved, given back when they are not queued.
   */
  replayToken?: string;
}

/**
 * A sending provider whose webhooks a feed takes. `verify` throws FeedVerificationError (not the
 * provider's), InvalidPayloadError (not what it sends) or FeedUnavailableError (retry); `map` throws
 * InvalidPayloadError.
 */
export interface FeedProvider<Name extends string = string, Verification = unknown> {
  name: Name;
  /** Its name as its users write it. */
  title: string;
  /** The UUIDv5 namespace of the source ids made from its message ids: its own, so two providers' never meet. */
  sourceIdNamespace: string;
  settings: ProviderSettings<Verification>;
  /** Where its messages say what scope they were sent in: what `feeds create --scope-from` takes. */
  scopeSources: readonly ScopeSourceKind[];
  verify(verification: Verification, request: FeedRequest, context: VerifyContext): Verified | Promise<Verified>;
  map: FeedMapper;
}

/** An option's value, trimmed, or a FeedSettingsError saying the provider needs `usage`. */
export function requiredOption(value: FeedSettingsInput[string], usage: string, provider: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : undefined;
  if (!trimmed) throw new FeedSettingsError(`A ${provider} feed needs ${usage}.`);
  return trimmed;
}

/** The body as text, for the providers whose payload is the body itself. */
export const bodyText = (request: FeedRequest): string => request.body.toString('utf8');
