import { z } from 'zod';
import { BOUNCE_CATEGORIES, BOUNCE_REASONS, type BounceReason } from '../../src/bounces/categories.js';
import { ORIGINS } from '../../src/suppressions/suppression.js';

/**
 * Response shapes, described in zod so that the document is generated from them and the tests can
 * check every documented example against them. `.strict()` makes an example with an unknown field fail.
 */

const id = z
  .uuid()
  .meta({ description: 'Suppression id (UUIDv7, time-ordered).', example: '019cebab-8995-77f7-9262-77a618303564' });

export const suppressionSchema = z
  .object({
    object: z.literal('suppression'),
    id,
    email: z
      .string()
      .meta({ description: 'The suppressed address, trimmed and lower-cased.', example: 'bounced@example.com' }),
    origin: z.enum(ORIGINS).meta({ description: 'How the address got on the list.' }),
    source_id: z
      .uuid()
      .nullable()
      .meta({ description: 'Id of the email that triggered the suppression; `null` when origin is `manual`.' }),
    created_at: z.iso
      .datetime({ precision: 3 })
      .meta({ description: 'ISO 8601 UTC with milliseconds.', example: '2026-03-14T09:26:53.589Z' }),
  })
  .strict()
  .meta({ id: 'Suppression' });

export const suppressionListSchema = z
  .object({
    object: z.literal('list'),
    has_more: z
      .boolean()
      .meta({ description: 'Whether more entries exist beyond this page in the direction of travel.' }),
    data: z.array(suppressionSchema).meta({ description: 'Newest first.' }),
  })
  .strict()
  .meta({ id: 'SuppressionList' });

const nullableText = (description: string) => z.string().nullable().meta({ description });

export const auditRecordSchema = z
  .object({
    object: z.literal('suppression_event'),
    event_id: z.string().meta({
      description: 'The upstream’s id of a bounce or complaint; for a removal, an id of this service.',
      example: 'ses-0102018f5e2c9b1a-7d1c',
    }),
    type: z.enum(['bounce', 'complaint', 'removal']),
    outcome: z
      .enum(['suppressed', 'already_suppressed', 'not_suppressed', 'removed', 'suppressed_soft_bounce_threshold'])
      .meta({
        description:
          'What the record did: added the address (`suppressed`, or `suppressed_soft_bounce_threshold` for the soft bounce that reached the account’s threshold), found it already listed, left it off the list (a bounce whose action is not `suppress`, or a complaint that is none), or `removed` it.',
      }),
    email: z.string().meta({ example: 'bounced@example.com' }),
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
        classification: z
          .object({
            category: z.enum(BOUNCE_CATEGORIES),
            reason: z.enum(Object.keys(BOUNCE_REASONS) as [BounceReason, ...BounceReason[]]),
            rule: z.string().meta({ description: 'What decided, e.g. `text:blocked using` or `status:X.1.1`.' }),
            version: z.string().meta({ description: 'The version of the classifier that decided.' }),
          })
          .strict()
          .nullable()
          .meta({
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
    removal_reason: z.enum(['expired', 'reclassified']).nullable().meta({
      description:
        '`expired` when the entry expired, `reclassified` when a reclassification found no evidence left for it; `null` when a removal was asked for, and for other records.',
    }),
    suppression_id: z.uuid().nullable().meta({ description: 'The entry the record added, found or removed.' }),
    occurred_at: z.iso
      .datetime({ precision: 3 })
      .nullable()
      .meta({ description: 'When the mail system saw the event; `null` for a removal.' }),
    received_at: z.iso.datetime({ precision: 3 }).meta({ description: 'When this service recorded it.' }),
  })
  .strict()
  .meta({ id: 'SuppressionEvent', description: 'One record of an address’s audit trail.' });

export const auditRecordListSchema = z
  .object({
    object: z.literal('list'),
    has_more: z
      .boolean()
      .meta({ description: 'Whether more records exist beyond this page in the direction of travel.' }),
    data: z.array(auditRecordSchema).meta({ description: 'Newest first.' }),
  })
  .strict()
  .meta({ id: 'SuppressionEventList' });

export const suppressionRefSchema = z
  .object({ object: z.literal('suppression'), id })
  .strict()
  .meta({ id: 'SuppressionRef', description: 'The id of a suppression that was added or already present.' });

export const removalResultSchema = z
  .object({ object: z.literal('suppression'), id, deleted: z.literal(true) })
  .strict()
  .meta({ id: 'RemovalResult' });

export const batchAddResultSchema = z
  .object({
    data: z.array(suppressionRefSchema).meta({ description: 'One entry per distinct address, in first-seen order.' }),
  })
  .strict()
  .meta({ id: 'BatchAddResult' });

export const batchRemoveResultSchema = z
  .object({
    data: z.array(removalResultSchema).meta({ description: 'One entry per removed suppression; misses are left out.' }),
  })
  .strict()
  .meta({ id: 'BatchRemoveResult' });

export const checkResultSchema = z
  .object({
    object: z.literal('suppression_check'),
    checked: z.number().int().meta({ description: 'Distinct valid addresses looked up.' }),
    suppressed: z
      .array(suppressionSchema)
      .meta({ description: 'The entry of each suppressed address, once, in the order of first appearance.' }),
    invalid: z
      .array(
        z.object({
          index: z.number().int().meta({ description: 'Position in `emails`, from 0.' }),
          email: z.string().meta({ description: 'The item as it was sent.' }),
          reason: z.string(),
        }),
      )
      .meta({ description: 'Items that are not addresses: they cannot be mailed either.' }),
  })
  .meta({ id: 'SuppressionCheck' });

export const errorSchema = z
  .object({
    statusCode: z.int().meta({ description: 'The HTTP status, repeated.' }),
    name: z.string().meta({ description: 'Stable error code clients match on.' }),
    message: z.string().meta({ description: 'Human-readable explanation.' }),
  })
  .strict()
  .meta({ id: 'Error', description: 'Every error answer (the shape Resend SDKs parse).' });

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

const check = z.enum(['ok', 'failed']);

export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z
      .object({
        database: check,
        redis: check.optional().meta({ description: 'Present when the process uses Redis.' }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Readiness' });

export const suppressionParamsSchema = z.object({
  suppression: z.string().min(1).meta({
    description: 'A suppression id (UUID) or the suppressed email address (percent-encoded; `+` is literal).',
    example: '019cebab-8995-77f7-9262-77a618303564',
  }),
});

export const feedDeliverySchema = z
  .object({
    object: z.literal('feed_delivery'),
    queued: z.number().int().meta({ description: 'Bounces and complaints queued, one per recipient.' }),
    ignored: z.number().int().meta({
      description: 'Events acknowledged without a record: deliveries, opens, clicks, deferrals, unusable addresses.',
    }),
  })
  .meta({ id: 'FeedDelivery' });

/** A provider's payload: an object (SNS, Postmark, Mailgun, Resend) or an array of events (SendGrid). */
export const feedBodySchema = z
  .union([z.looseObject({}), z.array(z.looseObject({}))])
  .meta({ description: 'The provider’s payload, verbatim: verified over its raw bytes.' });

export const feedParamsSchema = z.object({
  feed_id: z
    .string()
    .meta({ description: 'The feed id `feeds create` printed.', example: 'feed_3q2mXv8bLkP0cT7yWn1sRfUaHdE4jG6o' }),
});
