import type { SuppressionEventInput } from '../events/event-schema.js';
import type { ScopeSource } from './message-scope.js';

export interface MappingContext {
  /** The feed's account: every event is this account's. */
  accountId: string;
  /** The tag or metadata key whose value, when it is a UUID, becomes the event's `source_id` (`FEEDS_EMAIL_ID_TAG`). */
  emailIdTag: string;
  /** Where the feed reads the scope of each message (`feeds create --scope-from`); null: it reads none. */
  scopeFrom: ScopeSource | null;
}

/** What the provider's envelope says about one request, where it has an envelope. */
export interface Delivery {
  /** The envelope's message id: SNS's `MessageId` for SES, the Svix message id for Resend. */
  id?: string;
}

/**
 * Turns the text of one verified provider payload (for SES, the SNS message's `Message`) into events.
 * Throws InvalidPayloadError when the text is not what the provider sends.
 */
export type FeedMapper = (text: string, delivery: Delivery, context: MappingContext) => MappedPayload;

/** What one verified request from a provider turns into. */
export interface MappedPayload {
  /** The events to queue, in the provider's order, one per recipient. */
  events: SuppressionEventInput[];
  /**
   * The provider's own names of the events that neither suppress nor record (`delivered`, `open`,
   * `Delivery`...), one per event: acknowledged and counted, nothing more.
   */
  ignored: string[];
}
