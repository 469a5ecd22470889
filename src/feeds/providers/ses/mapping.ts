import { z } from 'zod';
import type { BounceType, SuppressionEventInput } from '../../../events/event-schema.js';
import { messageScope } from '../../message-scope.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import { InvalidPayloadError } from '../../feed-errors.js';
import type { FeedMapper, MappingContext } from '../../feed-mapping.js';
import { parsePayload, requiredOr, timestampField, recipientAddress } from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from SES message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const SES_SOURCE_IDS = '1b0d6a5e-3f57-4c2e-9a51-6f1c2b8e4d01';

const WHAT = 'an SES notification';

const SES_BOUNCE_TYPES = {
  Permanent: 'permanent',
  Transient: 'transient',
  Undetermined: 'undetermined',
} as const satisfies Record<string, BounceType>;

const timestamp = timestampField('must be an ISO 8601 timestamp');

// Identity notifications name their kind `notificationType`; configuration-set event publishing, `eventType`.
const kindSchema = z
  .object({ notificationType: z.string().optional(), eventType: z.string().optional() })
  .transform((notification, context) => {
    const kind = notification.notificationType ?? notification.eventType;
    if (kind === undefined) {
      context.addIssue({ code: 'custom', path: ['notificationType'], message: 'or `eventType` is required' });
      return z.NEVER;
    }
    return kind;
  });

// Only the fields the mapping reads: SES adds fields to its notifications over time, and they are left alone.
const mailSchema = z.object({
  timestamp,
  messageId: z.string().min(1, { error: 'must not be empty' }),
  tags: z.record(z.string(), z.array(z.string())).optional(),
});

const bounceSchema = z.object({
  bounce: z.object({
    bounceType: z.enum(['Permanent', 'Transient', 'Undetermined'], {
      error: requiredOr('must be Permanent, Transient or Undetermined'),
    }),
    bounceSubType: z.string().optional(),
    bouncedRecipients: z.array(
      z.object({ emailAddress: z.string(), status: z.string().optional(), diagnosticCode: z.string().optional() }),
    ),
    timestamp: timestamp.optional(),
    remoteMtaIp: z.string().optional(),
  }),
  mail: mailSchema,
});

const complaintSchema = z.object({
  complaint: z.object({
    complainedRecipients: z.array(z.object({ emailAddress: z.string() })),
    complaintFeedbackType: z.string().optional(),
    timestamp: timestamp.optional(),
  }),
  mail: mailSchema,
});

type Mail = z.output<typeof mailSchema>;
type EventBase = Omit<SuppressionEventInput, 'type' | 'bounce' | 'complaint'>;

/** What every event of one notification shares, for one recipient as SES writes it (maybe `Name <address>`). */
function eventBase(
  recipient: string,
  mail: Mail,
  occurredAt: string | undefined,
  snsMessageId: string,
  context: MappingContext,
): EventBase {
  const email = recipientAddress(recipient);
  return {
    account_id: context.accountId,
    event_id: feedEventId('ses', snsMessageId, email),
    email,
    source_id: feedSourceId(SES_SOURCE_IDS, mail.tags?.[context.emailIdTag]?.[0], mail.messageId),
    occurred_at: occurredAt ?? mail.timestamp,
    provider_message_id: mail.messageId,
    // SES tags every message with the configuration set it was sent through, as `ses:configuration-set`.
    scope: messageScope(context.scopeFrom, {
      configurationSet: mail.tags?.['ses:configuration-set'],
      named: (name) => mail.tags?.[name],
    }),
  };
}

function bounceEvents(data: unknown, snsMessageId: string, context: MappingContext): SuppressionEventInput[] {
  const { bounce, mail } = parsePayload(bounceSchema, data, WHAT);
  return bounce.bouncedRecipients.map((recipient) => ({
    ...eventBase(recipient.emailAddress, mail, bounce.timestamp, snsMessageId, context),
    type: 'bounce',
    bounce: {
      type: SES_BOUNCE_TYPES[bounce.bounceType],
      sub_type: bounce.bounceSubType,
      status: recipient.status,
      diagnostic: recipient.diagnosticCode,
      provider: 'ses',
      remote_mta: bounce.remoteMtaIp,
    },
  }));
}

function complaintEvents(data: unknown, snsMessageId: string, context: MappingContext): SuppressionEventInput[] {
  const { complaint, mail } = parsePayload(complaintSchema, data, WHAT);
  return complaint.complainedRecipients.map((recipient) => ({
    ...eventBase(recipient.emailAddress, mail, complaint.timestamp, snsMessageId, context),
    type: 'complaint',
    complaint: { feedback_type: complaint.complaintFeedbackType },
  }));
}

const PLAIN_TEXT = Symbol('plain text');

/**
 * The notification's JSON, or PLAIN_TEXT: SES publishes a plain-text message ("Successfully
 * validated SNS topic for Amazon SES event publishing.") when an event destination is created. Text
 * that opens like JSON but does not parse is a damaged notification, not that message.
 */
function parseNotification(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (/^\s*[{[]/.test(text)) throw new InvalidPayloadError(`Not ${WHAT}: the message is not valid JSON.`);
    return PLAIN_TEXT;
  }
}

/**
 * SES notifications, from identity notifications and from configuration-set event publishing alike:
 * every recipient of a Bounce or Complaint is an event; every other kind is acknowledged by its SES name.
 */
export const mapSes: FeedMapper = (text, delivery, context) => {
  const notification = parseNotification(text);
  if (notification === PLAIN_TEXT) return { events: [], ignored: ['text'] };
  const kind = parsePayload(kindSchema, notification, WHAT);
  if (kind !== 'Bounce' && kind !== 'Complaint') return { events: [], ignored: [kind] };
  // The SNS MessageId is what makes SNS's redeliveries of one notification the same events.
  if (!delivery.id) throw new Error('An SES notification is mapped with the MessageId of the SNS message carrying it.');
  const events =
    kind === 'Bounce'
      ? bounceEvents(notification, delivery.id, context)
      : complaintEvents(notification, delivery.id, context);
  return { events, ignored: [] };
};
