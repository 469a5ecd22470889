import { z } from 'zod';
import { MAIL_RECORD_KINDS, UNVERIFIED_REASONS } from '../domain/mail-records.js';
import { bounceCategorySchema, bounceReasonSchema } from './audit-record.js';

/** The answers of the `/messages` operations; `.strict()` as in suppression.ts. */

export const mailRecordSchema = z
  .object({
    object: z.literal('mail_record'),
    kind: z.enum(MAIL_RECORD_KINDS).meta({
      description:
        '`bounce` (a failure), `delay` (the MTA keeps trying), `complaint` (an ARF report), `auto_reply` (RFC 3834), or `not_a_report`.',
    }),
    recipient: z.string().nullable().meta({
      description:
        'Whom it acts on: the recipient the return path was made for when one verified, else the one the report names.',
    }),
    status: z.string().nullable().meta({ description: 'The enhanced status code (`5.1.1`).' }),
    reply_code: z.string().nullable().meta({ description: 'The SMTP reply code (`550`).' }),
    diagnostic: z.string().nullable().meta({ description: 'The remote server’s text.' }),
    feedback_type: z.string().nullable().meta({ description: 'A complaint’s ARF `Feedback-Type` (`abuse`).' }),
    category: bounceCategorySchema
      .nullable()
      .meta({ description: 'The classifier’s category of a bounce or an automatic reply; null for the other kinds.' }),
    reason: bounceReasonSchema.nullable(),
    verified: z.boolean().meta({ description: 'Whether a return path the service signed makes the record act.' }),
    unverified_reason: z.enum(UNVERIFIED_REASONS).nullable().meta({
      description:
        'Why it acts for nobody: `no_return_path` (it came to none and names none), a return path’s own problem, `other_message` (made for another message than the one enclosed), `other_account` (uploaded with another account’s key).',
    }),
  })
  .strict();
export type MailRecordResource = z.output<typeof mailRecordSchema>;

export const mailRecordListSchema = z
  .object({
    object: z.literal('list'),
    format: z
      .string()
      .meta({ description: 'Which reader read it: `rfc3464`, `arf`, `rfc3834`, `postfix`, `exim`, ...' }),
    data: z.array(mailRecordSchema),
  })
  .strict();
export type MailRecordList = z.output<typeof mailRecordListSchema>;

export const queuedMailMessageSchema = z
  .object({
    object: z.literal('mail_message'),
    id: z.string().meta({ description: 'The message’s SHA-256, hex: the same bytes are the same message, read once.' }),
    status: z.literal('queued'),
  })
  .strict();
export type QueuedMailMessage = z.output<typeof queuedMailMessageSchema>;
