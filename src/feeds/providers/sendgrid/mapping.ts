import { z } from 'zod';
import type { BounceType, SuppressionEventInput } from '../../../events/event-schema.js';
import { messageScope } from '../../message-scope.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import type { FeedMapper, MappedPayload, MappingContext } from '../../feed-mapping.js';
import { parseJson, parsePayload, timestampField } from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from SendGrid message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const SENDGRID_SOURCE_IDS = '6c2f8e14-9b0a-4d6e-8f3c-2a7d5e9b1c02';

const WHAT = 'a SendGrid Event Webhook batch';

/**
 * A hard bounce (`type` bounce, or no `type` in payloads older than the field) is permanent. A block is
 * SendGrid's word for a refusal of the message rather than of the address (a blocked sending IP, a
 * content filter), after which SendGrid itself keeps sending to the address: recorded, not suppressed.
 */
const SENDGRID_BOUNCE_TYPES = { bounce: 'permanent', blocked: 'transient' } as const satisfies Record<
  string,
  BounceType
>;

/** Unix seconds, as a number or its text, read as the event's `occurred_at`. */
const unixSeconds = timestampField('must be Unix seconds');

// Every event names its kind; only the kinds that become events need more.
const kindSchema = z.object({ event: z.string() });

// What a bounce and a spam report both need. Loose, because custom arguments (among them the email-id
// tag) arrive as top-level keys of the event.
const reportSchema = z.looseObject({
  email: z.string(),
  sg_event_id: z.string().min(1, { error: 'must not be empty' }),
  sg_message_id: z.string().optional(),
  timestamp: unixSeconds,
});

const bounceSchema = reportSchema.extend({
  type: z.enum(['bounce', 'blocked'], { error: 'must be bounce or blocked' }).optional(),
  status: z.string().optional(),
  reason: z.string().optional(),
  bounce_classification: z.string().optional(),
});

type Report = z.output<typeof reportSchema>;
type Bounce = z.output<typeof bounceSchema>;

function eventBase(report: Report, context: MappingContext): Omit<SuppressionEventInput, 'type'> {
  return {
    account_id: context.accountId,
    event_id: feedEventId('sendgrid', report.sg_event_id, report.email),
    email: report.email,
    // An asynchronous bounce has no sg_message_id; its own event id still names it for good.
    source_id: feedSourceId(
      SENDGRID_SOURCE_IDS,
      report[context.emailIdTag],
      report.sg_message_id ?? report.sg_event_id,
    ),
    occurred_at: report.timestamp,
    provider_message_id: report.sg_message_id,
    // Custom arguments are top-level keys of the event, as the email-id tag is.
    scope: messageScope(context.scopeFrom, {
      asmGroup: report['asm_group_id'],
      category: report['category'],
      named: (name) => report[name],
    }),
  };
}

function bounceEvent(report: Bounce, context: MappingContext): SuppressionEventInput {
  return {
    ...eventBase(report, context),
    type: 'bounce',
    bounce: {
      type: SENDGRID_BOUNCE_TYPES[report.type ?? 'bounce'],
      // SendGrid's classification of the server's answer ("Invalid Address", "Mailbox Unavailable"...)
      // says more than `type`, which the bounce type already carries; `type` stands in when it is absent.
      sub_type: report.bounce_classification ?? report.type,
      status: report.status,
      diagnostic: report.reason,
      provider: 'sendgrid',
    },
  };
}

function parseBatch(text: string): unknown[] {
  return parsePayload(z.array(z.unknown()), parseJson(text, WHAT), WHAT);
}

/**
 * A SendGrid Event Webhook batch: every `bounce` and `spamreport` is an event; every other kind (`dropped`,
 * `deferred`, `delivered`, `processed`, `open`, `click`, the unsubscribes, and kinds added later) is
 * acknowledged by its SendGrid name.
 */
export const mapSendGrid: FeedMapper = (text, _delivery, context) => {
  const batch = parseBatch(text);
  const kinds = parsePayload(z.array(kindSchema), batch, WHAT).map(({ event }) => event);
  const mapped: MappedPayload = { events: [], ignored: [] };
  kinds.forEach((kind, index) => {
    if (kind === 'bounce') {
      mapped.events.push(bounceEvent(parsePayload(bounceSchema, batch[index], WHAT, [index]), context));
    } else if (kind === 'spamreport') {
      const report = parsePayload(reportSchema, batch[index], WHAT, [index]);
      mapped.events.push({ ...eventBase(report, context), type: 'complaint' });
    } else {
      mapped.ignored.push(kind);
    }
  });
  return mapped;
};
