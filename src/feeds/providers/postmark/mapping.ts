import { isInteger, parse } from 'lossless-json';
import { z } from 'zod';
import type { BounceType, SuppressionEventInput } from '../../../events/event-schema.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import type { FeedMapper, MappedPayload, MappingContext } from '../../feed-mapping.js';
import { messageScope } from '../../message-scope.js';
import { parseJson, parsePayload, recipientAddress, timestampField } from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from Postmark message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const POSTMARK_SOURCE_IDS = 'a94e3d27-5c18-4b7f-b2e6-8d0f1a3c5e03';

const WHAT = 'a Postmark webhook payload';

type Outcome = BounceType | 'complaint' | 'ignored';

/**
 * What each of Postmark's bounce types (its bounce API's "Bounce types" table) means for the address.
 * A type missing here, one Postmark adds later, is recorded as undetermined rather than dropped.
 */
const BOUNCE_TYPES = new Map<string, Outcome>([
  // "Unknown user, mailbox not found" and "not a valid email address": the address itself is bad.
  ['HardBounce', 'permanent'],
  ['BadEmailAddress', 'permanent'],
  // Delayed, mailbox full, temporary DNS trouble: a later message may well arrive.
  ['Transient', 'transient'],
  ['SoftBounce', 'transient'],
  ['DnsError', 'transient'],
  // The receiving side refused this message (unclassified, ISP block, DMARC) without saying the address is bad.
  ['Unknown', 'undetermined'],
  ['Blocked', 'undetermined'],
  ['DMARCPolicy', 'undetermined'],
  ['SpamComplaint', 'complaint'],
  // Automatic replies ("Out of Office", "On Vacation"; a challenge-response system asking the sender to
  // prove itself): recorded as the bounces of the mail parser's automatic replies are, with no label of
  // failure, and decided from their text and their type, which the classifier reads as `auto_reply`.
  ['AutoResponder', 'undetermined'],
  ['ChallengeVerification', 'undetermined'],
  // Notices and Postmark's own processing, which say nothing about whether the address works:
  // address-change replies, (un)subscribe requests, open-relay tests, virus and spam-filter notices,
  // a user's manual deactivation, unconfirmed sign-ups, inbound-hook failures, and messages Postmark
  // never sent (an SMTP API error, a template that did not render).
  ['AddressChange', 'ignored'],
  ['Subscribe', 'ignored'],
  ['Unsubscribe', 'ignored'],
  ['OpenRelayTest', 'ignored'],
  ['VirusNotification', 'ignored'],
  ['SpamNotification', 'ignored'],
  ['ManuallyDeactivated', 'ignored'],
  ['Unconfirmed', 'ignored'],
  ['InboundError', 'ignored'],
  ['SMTPApiError', 'ignored'],
  ['TemplateRenderingFailed', 'ignored'],
]);

const text = z.string().min(1, { error: 'must not be empty' });

const timestamp = timestampField('must be an ISO 8601 timestamp');

const recordTypeSchema = z.object({ RecordType: text }, { error: 'must be a JSON object' });

const recordSchema = z.object({
  // A string: the number parser below keeps integers as their exact digits.
  ID: text,
  Email: text,
  BouncedAt: timestamp,
  MessageID: text,
  Details: z.string().nullish(),
  Description: z.string().nullish(),
  Metadata: z.record(z.string(), z.unknown()).nullish(),
  MessageStream: z.string().nullish(),
});

const subscriptionChangeSchema = z.object({
  Recipient: text,
  ChangedAt: timestamp,
  SuppressSending: z.boolean(),
  SuppressionReason: z.string().nullish(),
  MessageID: z.string().nullish(),
  Metadata: z.record(z.string(), z.unknown()).nullish(),
  MessageStream: z.string().nullish(),
});

/** The scope of a Postmark message: its stream, or one of its metadata. */
function scopeOf(
  message: { MessageStream?: string | null | undefined; Metadata?: Record<string, unknown> | null | undefined },
  context: MappingContext,
): string | undefined {
  return messageScope(context.scopeFrom, {
    stream: message.MessageStream,
    named: (name) => message.Metadata?.[name],
  });
}

// Only a bounce has a type worth reading: a spam complaint is a complaint, whatever its Type says.
const bounceTypeSchema = z.object({ Type: text });

/** The body as JSON, every integer kept as its digits: Postmark's IDs go past 2^53, where numbers merge. */
const losslessJson = (body: string): unknown =>
  parse(body, null, (value) => (isInteger(value) ? value : Number(value)));

/**
 * Broadcast streams report their hard bounces and spam complaints only as changes of the stream's
 * suppression list. Such a change is taken as the bounce or complaint it records. A reactivation (the
 * customer lifted the address at Postmark) withdraws Postmark's verdict: it lifts what Postmark's
 * evidence alone put on the list. A manual suppression or an unsubscribe is not a verdict on the
 * address, and is acknowledged only.
 */
function subscriptionChange(data: unknown, context: MappingContext): MappedPayload {
  const change = parsePayload(subscriptionChangeSchema, data, WHAT);
  const reason = change.SuppressSending ? change.SuppressionReason : 'Reactivation';
  if (reason !== 'HardBounce' && reason !== 'SpamComplaint' && reason !== 'Reactivation') {
    return { events: [], ignored: ['SubscriptionChange'] };
  }
  const email = recipientAddress(change.Recipient);
  const changeId = `${change.MessageID ?? ''}@${change.ChangedAt}`;
  const event: Omit<SuppressionEventInput, 'type'> = {
    account_id: context.accountId,
    event_id: feedEventId('postmark', `subscription-change:${changeId}`, email),
    email,
    source_id: feedSourceId(POSTMARK_SOURCE_IDS, change.Metadata?.[context.emailIdTag], change.MessageID ?? changeId),
    occurred_at: change.ChangedAt,
    provider_message_id: change.MessageID ?? undefined,
    scope: scopeOf(change, context),
  };
  if (reason === 'Reactivation') {
    return { events: [{ ...event, type: 'reactivation', reactivation: { provider: 'postmark' } }], ignored: [] };
  }
  return {
    events: [
      reason === 'HardBounce'
        ? {
            ...event,
            type: 'bounce',
            bounce: { type: 'permanent', sub_type: 'SubscriptionChange', provider: 'postmark' },
          }
        : { ...event, type: 'complaint' },
    ],
    ignored: [],
  };
}

/**
 * A Postmark bounce, spam-complaint or subscription-change webhook as events; its other webhooks are
 * ignored under their RecordType.
 */
export const mapPostmark: FeedMapper = (body, _delivery, context) => {
  const data = parseJson(body, WHAT, losslessJson);
  const { RecordType } = parsePayload(recordTypeSchema, data, WHAT);
  if (RecordType === 'SubscriptionChange') return subscriptionChange(data, context);
  if (RecordType !== 'Bounce' && RecordType !== 'SpamComplaint') return { events: [], ignored: [RecordType] };

  const bounceType = RecordType === 'Bounce' ? parsePayload(bounceTypeSchema, data, WHAT).Type : undefined;
  const record = parsePayload(recordSchema, data, WHAT);
  const outcome: Outcome = bounceType === undefined ? 'complaint' : (BOUNCE_TYPES.get(bounceType) ?? 'undetermined');
  if (outcome === 'ignored') return { events: [], ignored: [bounceType ?? RecordType] };

  const email = recipientAddress(record.Email);
  const event = {
    account_id: context.accountId,
    event_id: feedEventId('postmark', record.ID, email),
    email,
    source_id: feedSourceId(POSTMARK_SOURCE_IDS, record.Metadata?.[context.emailIdTag], record.MessageID),
    occurred_at: record.BouncedAt,
    provider_message_id: record.MessageID,
    scope: scopeOf(record, context),
  };
  if (outcome === 'complaint') return { events: [{ ...event, type: 'complaint' }], ignored: [] };
  // Only Details is the receiving server's answer; Description is Postmark's fixed text for the bounce
  // type ("unknown user, mailbox not found" for every hard bounce), which is the label again, not evidence.
  const diagnostic = record.Details || undefined;
  return {
    events: [
      { ...event, type: 'bounce', bounce: { type: outcome, sub_type: bounceType, diagnostic, provider: 'postmark' } },
    ],
    ignored: [],
  };
};
