import { z } from 'zod';
import type { SuppressionEventInput } from '../../../events/event-schema.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import type { FeedMapper, MappingContext } from '../../feed-mapping.js';
import { messageScope } from '../../message-scope.js';
import { parseJson, parsePayload, recipientAddress, timestampField } from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from Postal message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const POSTAL_SOURCE_IDS = '2e9f5a73-b8c1-4d06-a47e-83c6d1f0b507';

const WHAT = 'a Postal webhook';

const text = z.string().min(1, { error: 'must not be empty' });

const unixSeconds = timestampField('must be Unix seconds');

// Postal's envelope: the event, when it was raised, its payload, and the id of this webhook request,
// which Postal keeps on each retry of it.
const envelopeSchema = z.object(
  { event: text, uuid: z.string().nullish(), timestamp: unixSeconds.optional(), payload: z.unknown() },
  { error: 'must be a JSON object' },
);

const messageSchema = z.object({
  // A number in Postal's message database; kept as text, as it is only an id.
  id: z.union([z.number().int(), text]).transform(String),
  token: z.string().nullish(),
  direction: z.string().nullish(),
  message_id: z.string().nullish(),
  to: text,
  tag: z.string().nullish(),
});

const deliverySchema = z.object({
  payload: z.object({
    message: messageSchema,
    status: z.string().nullish(),
    details: z.string().nullish(),
    output: z.string().nullish(),
    timestamp: unixSeconds,
  }),
});

const bouncedSchema = z.object({
  payload: z.object({
    original_message: messageSchema.extend({ timestamp: unixSeconds }),
    bounce: z.object({ timestamp: unixSeconds.optional() }).nullish(),
  }),
});

type Message = z.output<typeof messageSchema>;

function eventBase(
  id: string,
  message: Message,
  occurredAt: string,
  context: MappingContext,
): Omit<SuppressionEventInput, 'type'> {
  const email = recipientAddress(message.to);
  // Postal keeps no metadata on a message: the source id is made from its Message-ID.
  const messageId = message.message_id || message.token || message.id;
  return {
    account_id: context.accountId,
    event_id: feedEventId('postal', id, email),
    email,
    source_id: feedSourceId(POSTAL_SOURCE_IDS, undefined, messageId),
    occurred_at: occurredAt,
    provider_message_id: message.message_id || undefined,
    scope: messageScope(context.scopeFrom, { tags: message.tag }),
  };
}

/** What a webhook request is, however often Postal sends it: its uuid, else what it is about. */
function requestId(envelope: z.output<typeof envelopeSchema>, about: string): string {
  return envelope.uuid || `${envelope.event}:${about}`;
}

/**
 * A delivery event. `MessageDeliveryFailed` is Postal's HardFail: with `output` (the receiving server's
 * answer) a permanent bounce read from it; without, a failure Postal decided itself (its own limits, a
 * sending domain it no longer has, the delivery attempts it gave up on), whose label says nothing and
 * whose `details` are the only words. `MessageDelayed` is a SoftFail, an attempt Postal will retry: a
 * transient bounce, one per message however many attempts fail, so that a message's retries count
 * once toward a soft-bounce threshold.
 */
function deliveryEvent(
  envelope: z.output<typeof envelopeSchema>,
  data: unknown,
  context: MappingContext,
): SuppressionEventInput {
  const { message, status, details, output, timestamp } = parsePayload(deliverySchema, data, WHAT).payload;
  const answer = output?.trim() || undefined;
  const delayed = envelope.event === 'MessageDelayed';
  const id = delayed ? `MessageDelayed:${message.id}` : requestId(envelope, `${message.id}@${timestamp}`);
  return {
    ...eventBase(id, message, timestamp, context),
    type: 'bounce',
    bounce: {
      type: delayed ? 'transient' : answer ? 'permanent' : 'undetermined',
      sub_type: status || undefined,
      diagnostic: answer ?? (details?.trim() || undefined),
      provider: 'postal',
    },
  };
}

/**
 * `MessageBounced`: a bounce message came back to the return path for a message Postal sent. Postal
 * passes on none of its content, so the bounce is recorded undetermined, with Postal's word for it.
 */
function bouncedEvent(
  envelope: z.output<typeof envelopeSchema>,
  data: unknown,
  context: MappingContext,
): SuppressionEventInput | null {
  const { original_message: message, bounce } = parsePayload(bouncedSchema, data, WHAT).payload;
  if (message.direction && message.direction !== 'outgoing') return null;
  // When the bounce arrived, else when Postal raised the event, else when the message was sent.
  const occurredAt = bounce?.timestamp ?? envelope.timestamp ?? message.timestamp;
  return {
    ...eventBase(requestId(envelope, `${message.id}:bounced`), message, occurredAt, context),
    type: 'bounce',
    bounce: { type: 'undetermined', sub_type: 'Bounced', provider: 'postal' },
  };
}

const DELIVERY_FAILURES = new Set(['MessageDeliveryFailed', 'MessageDelayed']);

/**
 * A Postal webhook (`{event, timestamp, payload, uuid}`, its signature checked before this) as events:
 * `MessageDeliveryFailed` and `MessageDelayed` are bounces of the message's recipient, `MessageBounced`
 * a bounce of the original message's. Only messages Postal sent count: the same events of messages it
 * received (direction `incoming`) are ignored as `<event>:incoming`. Every other event (`MessageSent`,
 * `MessageHeld`, `MessageLoaded`, `MessageLinkClicked`, `DomainDNSError`, the send limits) is ignored
 * under its name.
 */
export const mapPostal: FeedMapper = (body, _delivery, context) => {
  const data = parseJson(body, WHAT);
  const envelope = parsePayload(envelopeSchema, data, WHAT);
  const { event } = envelope;
  if (event === 'MessageBounced') {
    const bounced = bouncedEvent(envelope, data, context);
    return bounced ? { events: [bounced], ignored: [] } : { events: [], ignored: [`${event}:incoming`] };
  }
  if (!DELIVERY_FAILURES.has(event)) return { events: [], ignored: [event] };
  const direction = parsePayload(deliverySchema, data, WHAT).payload.message.direction;
  if (direction && direction !== 'outgoing') return { events: [], ignored: [`${event}:incoming`] };
  return { events: [deliveryEvent(envelope, data, context)], ignored: [] };
};
