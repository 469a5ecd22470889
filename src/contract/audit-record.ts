import { ACTOR_TYPES } from '../domain/actor.js';
import { scopeOutput } from './scope.js';
import { z } from 'zod';
import { BOUNCE_CATEGORIES, BOUNCE_REASONS, type BounceReason } from '../domain/bounce-categories.js';
import { nullableText } from './fields.js';
import { pageOf } from './paging.js';

export const AUDIT_OUTCOMES = [
  'suppressed',
  'already_suppressed',
  'not_suppressed',
  'removed',
  'suppressed_soft_bounce_threshold',
  'allowlisted',
] as const;

export const bounceCategorySchema = z.enum(BOUNCE_CATEGORIES);
export const bounceReasonSchema = z.enum(Object.keys(BOUNCE_REASONS) as [BounceReason, ...BounceReason[]]);

export const recordedClassificationSchema = z
  .object({
    category: bounceCategorySchema,
    reason: bounceReasonSchema,
    rule: z.string().meta({ description: 'What decided, e.g. `text:blocked using` or `status:X.1.1`.' }),
    version: z.string().meta({ description: 'The version of the classifier that decided.' }),
  })
  .strict();
export type RecordedClassification = z.output<typeof recordedClassificationSchema>;

/** Without the example of `timestamp` (fields.ts), as these two fields have always been documented. */
const isoMillis = z.iso.datetime({ precision: 3 });

/** One record of an address's audit trail, as `GET /suppressions/{suppression}/events` lists it. */
export const auditRecordSchema = z
  .object({
    object: z.literal('suppression_event'),
    event_id: z.string().meta({
      description: 'The upstream’s id of a bounce or complaint; for a removal, an id of this service.',
      example: 'ses-0102018f5e2c9b1a-7d1c',
    }),
    type: z.enum(['bounce', 'complaint', 'removal', 'addition']).meta({
      description:
        'A bounce or a complaint (an event), the removal of an entry, or the addition of one through the API, the console or an import.',
    }),
    outcome: z.enum(AUDIT_OUTCOMES).meta({
      description:
        'What the record did: added the address (`suppressed`, or `suppressed_soft_bounce_threshold` for the soft bounce that reached the account’s threshold), found it already listed, left it off the list (a bounce whose action is not `suppress`, or a complaint that is none), left it off because the account’s allowlist covers it (`allowlisted`), or `removed` it.',
    }),
    email: z.string().meta({ example: 'bounced@example.com' }),
    scope: scopeOutput.meta({
      description:
        'The scope of the entry the record made, found or removed: `null` for the whole account. A bounce’s is always `null`.',
    }),
    source_id: z.uuid().nullable().meta({ description: 'The email the event was about; `null` for a removal.' }),
    bounce: z
      .object({
        type: nullableText('`permanent`, `transient` or `undetermined`.'),
        sub_type: nullableText('The mail system’s own classification.'),
        status: nullableText('The enhanced status code, e.g. `5.1.1`.'),
        reply_code: nullableText('The SMTP reply code, e.g. `550`, where it came apart from the text.'),
        diagnostic: nullableText('The remote server’s answer.'),
        provider: nullableText('Who reported the bounce, e.g. `ses`.'),
        remote_mta: nullableText('The receiving server, where known.'),
        classification: recordedClassificationSchema.nullable().meta({
          description:
            'What the classifier made of the bounce when it was recorded; `null` for a record written before bounces were classified.',
        }),
      })
      .strict()
      .nullable()
      .meta({ description: 'For a bounce; otherwise `null`.' }),
    complaint: z
      .object({ feedback_type: nullableText('The ARF feedback type, e.g. `abuse`.') })
      .strict()
      .nullable()
      .meta({ description: 'For a complaint; otherwise `null`.' }),
    provider_message_id: nullableText(
      'The sending provider’s id for the message, when a provider feed sent the event.',
    ),
    removed_by_key_id: z
      .uuid()
      .nullable()
      .meta({ description: 'For a removal through the API: the id of the API key that made it.' }),
    removal_reason: z.enum(['expired', 'reclassified', 'reactivated']).nullable().meta({
      description:
        '`expired` when the entry expired, `reclassified` when a reclassification found no evidence left for it, `reactivated` when the provider whose evidence alone put it there withdrew it (a Postmark reactivation); `null` when a removal was asked for, and for other records.',
    }),
    reason: z.string().nullable().meta({
      description:
        'For a removal: the reason its caller gave (required to remove an entry a complaint put on the list); otherwise `null`.',
    }),
    actor: z
      .object({
        type: z.enum(ACTOR_TYPES),
        id: z.string().nullable(),
      })
      .strict()
      .meta({
        description:
          'Who or what made the record: `api_key` and `console` (the id of the key, or of the console session’s key), `feed` (the feed’s id), `queue` (a producer’s event, or a batch job: the import’s id when it was one), `unsubscribe_link` (the recipient’s one-click unsubscribe) or `system` (expiry, or a reclassification: its run’s id). `id` is `null` where there is none to name, as for records kept from before actors were.',
        example: { type: 'api_key', id: '019ceba0-7f12-7c4e-8d3a-2b9e5f1c0a64' },
      }),
    suppression_id: z.uuid().nullable().meta({ description: 'The entry the record added, found or removed.' }),
    occurred_at: isoMillis
      .nullable()
      .meta({ description: 'When the mail system saw the event; `null` for a removal.' }),
    received_at: isoMillis.meta({ description: 'When this service recorded it.' }),
  })
  .strict()
  .meta({ id: 'SuppressionEvent', description: 'One record of an address’s audit trail.' });
export type AuditRecordResource = z.output<typeof auditRecordSchema>;
export type AuditOutcome = AuditRecordResource['outcome'];

export const auditRecordListSchema = pageOf(auditRecordSchema, {
  id: 'SuppressionEventList',
  of: 'records',
  order: 'Newest first.',
});
export type AuditRecordPage = z.output<typeof auditRecordListSchema>;
