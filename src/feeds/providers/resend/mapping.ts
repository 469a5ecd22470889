import { z } from 'zod';
import { bouncedRecipient } from '../../../bounces/bounced-recipient.js';
import { RECIPIENT_UNIDENTIFIED } from '../../../bounces/provider-rules.js';
import type { BounceType, SuppressionEventInput } from '../../../events/event-schema.js';
import { messageScope } from '../../message-scope.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import { InvalidPayloadError } from '../../feed-errors.js';
import type { FeedMapper } from '../../feed-mapping.js';
import {
  isRecord,
  parseJson,
  isoTimestamp,
  parsePayload,
  recipientAddress,
  requiredOr,
} from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from Resend message ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const RESEND_SOURCE_IDS = 'd58a2f6c-1e9b-4a37-8d05-c4f6e2b9a105';

const WHAT = 'a Resend webhook payload';

const text = z.string().min(1, { error: 'must not be empty' });

const typeSchema = z.object({ type: text }, { error: 'must be a JSON object' });

const emailEventSchema = z.object({
  created_at: z.string().nullish(),
  data: z.object({
    email_id: text,
    // A list, as Resend sends it; a single address is taken as a list of one.
    to: z.union(
      [text.transform((address) => [address]), z.array(text).min(1, { error: 'must name at least one recipient' })],
      { error: requiredOr('must be a list of addresses') },
    ),
    created_at: z.string().nullish(),
    // What the sender tagged the email with: `{name: value}`, or a list of `{name, value}`.
    tags: z.unknown().optional(),
    bounce: z
      .object({ type: z.string().nullish(), subType: z.string().nullish(), message: z.string().nullish() })
      .nullish(),
  }),
});

type EmailEvent = z.output<typeof emailEventSchema>;

const BOUNCE_TYPES = new Map<string, BounceType>([
  ['permanent', 'permanent'],
  ['transient', 'transient'],
]);

function tagValue(tags: unknown, name: string): unknown {
  if (Array.isArray(tags)) {
    const tag: unknown = tags.find((item: unknown) => isRecord(item) && item.name === name);
    return isRecord(tag) ? tag.value : undefined;
  }
  return isRecord(tags) && Object.hasOwn(tags, name) ? tags[name] : undefined;
}

/** When it happened: the event's own time, else the email's. */
function occurredAt(event: EmailEvent): string {
  const iso = isoTimestamp(event.created_at ?? '') ?? isoTimestamp(event.data.created_at ?? '');
  if (iso === null) throw new InvalidPayloadError(`Not ${WHAT}: \`created_at\` must be an ISO 8601 timestamp.`);
  return iso;
}

/**
 * A Resend webhook as events: `email.complained` is a complaint of every address in `data.to`;
 * `email.bounced` is a bounce of the type in `data.bounce.type` of the one recipient that bounced
 * (the only one, or the one the bounce's message names). The other recipients did not bounce and
 * are acknowledged as `email.bounced:other-recipient`; when the message names none of several
 * recipients, each gets a bounce of the sub-type `RecipientUnidentified`, which the classifier never
 * lets suppress at once. Every other event is ignored under its type; among
 * them `email.failed` (Resend could not send at all: a bad API key, an unverified domain, a quota) and
 * `email.suppressed` (Resend sent nothing to an address on its own suppression list, which a hard bounce
 * or complaint put there, already reported as `email.bounced` or `email.complained`, or a person did).
 */
export const mapResend: FeedMapper = (body, delivery, context) => {
  const data = parseJson(body, WHAT);
  const { type } = parsePayload(typeSchema, data, WHAT);
  if (type !== 'email.bounced' && type !== 'email.complained') return { events: [], ignored: [type] };

  const event = parsePayload(emailEventSchema, data, WHAT);
  // The Svix message id is the same on every retry of this webhook, and differs between webhooks.
  const deliveryId = delivery.id;
  if (!deliveryId) throw new InvalidPayloadError(`Not ${WHAT}: the \`svix-id\` header is required.`);
  const occurred_at = occurredAt(event);
  const source_id = feedSourceId(RESEND_SOURCE_IDS, tagValue(event.data.tags, context.emailIdTag), event.data.email_id);
  const scope = messageScope(context.scopeFrom, { named: (name) => tagValue(event.data.tags, name) });
  const bounce = event.data.bounce;
  const bounceType = BOUNCE_TYPES.get(bounce?.type?.toLowerCase() ?? '') ?? 'undetermined';

  const recipients = event.data.to.map(recipientAddress);
  // One bounce of an email to several addresses is about one of them: the one its message names.
  const bounced = type === 'email.bounced' ? bouncedRecipient(recipients, bounce?.message) : null;
  const events = new Map<string, SuppressionEventInput>();
  const ignored: string[] = [];
  for (const email of recipients) {
    if (bounced !== null && email.trim().toLowerCase() !== bounced) {
      ignored.push(`${type}:other-recipient`);
      continue;
    }
    const event_id = feedEventId('resend', deliveryId, email);
    const common = {
      account_id: context.accountId,
      event_id,
      email,
      source_id,
      occurred_at,
      provider_message_id: event.data.email_id,
      scope,
    };
    events.set(
      event_id,
      type === 'email.complained'
        ? { ...common, type: 'complaint' }
        : {
            ...common,
            type: 'bounce',
            bounce: {
              type: bounceType,
              // A bounce that names none of several recipients, or more than one, is pinned on none of them.
              sub_type: bounced === null ? RECIPIENT_UNIDENTIFIED : bounce?.subType || undefined,
              diagnostic: bounce?.message || undefined,
              provider: 'resend',
            },
          },
    );
  }
  // An address named twice is one recipient: the same event id would be one event anyway.
  return { events: [...events.values()], ignored };
};
