import { z } from 'zod';
import { bounceCategorySchema, bounceReasonSchema } from './audit-record.js';
import { count, nullableText } from './fields.js';
import { pageOf } from './paging.js';

/** One entry a reclassification lifted, or in a dry run would lift; `.strict()` as in suppression.ts. */
export const reclassificationEntrySchema = z
  .object({
    object: z.literal('bounce_reclassification_entry'),
    id: z.uuid().meta({
      description: 'The entry’s id, as the list knew it. After a real run the entry is gone: its history keeps it.',
      example: '01a21088-9a00-7000-8000-00000000c0de',
    }),
    email: z.string().meta({ example: 'pat@hotmail.com' }),
    category: bounceCategorySchema.meta({
      description: 'What the classifier makes now of the address’s latest bounce.',
    }),
    reason: bounceReasonSchema,
    rule: z.string().meta({ description: 'What decided, e.g. `text:blocked using` or `status:X.7.1`.' }),
    bounces: count(
      'The address’s bounces the run judged, those recorded since its last removal: none of them, nor any complaint, supports the entry now.',
    ),
    latest_bounce: z
      .object({
        type: nullableText('The provider’s label: `permanent`, `transient` or `undetermined`.'),
        sub_type: nullableText('The provider’s finer word.'),
        status: nullableText('The enhanced status code, e.g. `5.7.1`.'),
        reply_code: nullableText('The SMTP reply code, where it came apart from the text.'),
        diagnostic: nullableText('The remote server’s answer.'),
        provider: nullableText('Who reported the bounce, e.g. `ses`.'),
        remote_mta: nullableText('The receiving server, where known.'),
        occurred_at: z.iso
          .datetime({ precision: 3 })
          .nullable()
          .meta({ description: 'When the mail system saw the bounce.' }),
      })
      .strict()
      .meta({ description: 'The evidence of the address’s latest bounce, as its history holds it.' }),
  })
  .strict()
  .meta({ id: 'BounceReclassificationEntry' });
export type ReclassificationEntryResource = z.output<typeof reclassificationEntrySchema>;

export const reclassificationEntryListSchema = pageOf(reclassificationEntrySchema, {
  id: 'BounceReclassificationEntryList',
  of: 'entries',
  order: 'Newest entry first, by entry id.',
});
export type ReclassificationEntryPage = z.output<typeof reclassificationEntryListSchema>;
