import { z } from 'zod';
import type { BounceType } from '../../../events/event-schema.js';
import { messageScope } from '../../message-scope.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import type { FeedMapper } from '../../feed-mapping.js';
import { isRecord, parseJson, parsePayload, recipientAddress, timestampField } from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from Mailgun message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const MAILGUN_SOURCE_IDS = '3e7b1c59-d2a4-4f08-9c6e-5b8a0d2f7e04';

const WHAT = 'a Mailgun webhook payload';

const text = z.string().min(1, { error: 'must not be empty' });

// Mailgun leaves out, or sends null for, the delivery details it does not have.
const optionalText = z.string().nullish();

const timestamp = timestampField('must be Unix seconds');

const eventNameSchema = z.object({ 'event-data': z.object({ event: text }) }, { error: 'must be a JSON object' });

const eventSchema = z.object({
  'event-data': z.object({
    id: text,
    timestamp,
    recipient: text,
    severity: optionalText,
    reason: optionalText,
    'delivery-status': z
      .object({
        code: z.union([z.number(), z.string()]).nullish(),
        'enhanced-code': optionalText,
        message: optionalText,
        description: optionalText,
        'mx-host': optionalText,
      })
      .nullish(),
    message: z.object({ headers: z.object({ 'message-id': optionalText }).nullish() }).nullish(),
    // An object of the sender's variables, or `[]` when there are none.
    'user-variables': z.unknown().optional(),
    tags: z.unknown().optional(),
  }),
});

type EventData = z.output<typeof eventSchema>['event-data'];

const SEVERITIES = new Map<string, BounceType>([
  ['permanent', 'permanent'],
  ['temporary', 'transient'],
]);

function variable(variables: unknown, name: string): unknown {
  return isRecord(variables) && Object.hasOwn(variables, name) ? variables[name] : undefined;
}

/** The enhanced status code (5.1.1) when Mailgun has one, else the SMTP (or Mailgun's own) code as text. */
function statusOf(status: EventData['delivery-status']): string | undefined {
  if (status?.['enhanced-code']) return status['enhanced-code'];
  const code = status?.code;
  return code === undefined || code === null || code === '' ? undefined : String(code);
}

function diagnosticOf(status: EventData['delivery-status']): string | undefined {
  const parts = [status?.message, status?.description].filter((part): part is string => Boolean(part?.trim()));
  return parts.length > 0 ? [...new Set(parts)].join('; ') : undefined;
}

/**
 * A Mailgun webhook (`{signature, "event-data"}`, the signature checked before this) as events: a `failed`
 * event is a bounce whose `severity` gives its type, a `complained` event a complaint; every other
 * event (`delivered`, `opened`, `rejected`...) is ignored under its name.
 */
export const mapMailgun: FeedMapper = (body, _delivery, context) => {
  const data = parseJson(body, WHAT);
  const { event } = parsePayload(eventNameSchema, data, WHAT)['event-data'];
  if (event !== 'failed' && event !== 'complained') return { events: [], ignored: [event] };

  const eventData = parsePayload(eventSchema, data, WHAT)['event-data'];
  const email = recipientAddress(eventData.recipient);
  const messageId = eventData.message?.headers?.['message-id'] || undefined;
  const common = {
    account_id: context.accountId,
    event_id: feedEventId('mailgun', eventData.id, email),
    email,
    source_id: feedSourceId(
      MAILGUN_SOURCE_IDS,
      variable(eventData['user-variables'], context.emailIdTag),
      messageId ?? eventData.id,
    ),
    occurred_at: eventData.timestamp,
    provider_message_id: messageId,
    scope: messageScope(context.scopeFrom, {
      tags: eventData.tags,
      named: (name) => variable(eventData['user-variables'], name),
    }),
  };
  if (event === 'complained') return { events: [{ ...common, type: 'complaint' }], ignored: [] };
  const status = eventData['delivery-status'];
  const code = status?.code;
  const bounce = {
    type: SEVERITIES.get(eventData.severity ?? '') ?? 'undetermined',
    sub_type: eventData.reason || undefined,
    status: statusOf(status),
    reply_code: code === undefined || code === null || code === '' ? undefined : code,
    diagnostic: diagnosticOf(status),
    provider: 'mailgun',
    remote_mta: status?.['mx-host'] || undefined,
  };
  return { events: [{ ...common, type: 'bounce', bounce }], ignored: [] };
};
