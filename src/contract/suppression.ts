import { z } from 'zod';
import { ORIGINS } from '../domain/origins.js';
import { timestamp } from './fields.js';
import { pageOf } from './paging.js';
import { scopeOutput } from './scope.js';

/**
 * The answers of the `/suppressions` operations. `.strict()` makes the document say
 * `additionalProperties: false`, and makes an example (or an answer) with an unknown field fail.
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
    scope: scopeOutput,
    created_at: timestamp,
  })
  .strict()
  .meta({ id: 'Suppression' });
export type SuppressionResource = z.output<typeof suppressionSchema>;

export const suppressionListSchema = pageOf(suppressionSchema, {
  id: 'SuppressionList',
  of: 'entries',
  order: 'Newest first.',
});
export type SuppressionPage = z.output<typeof suppressionListSchema>;

export const suppressionRefSchema = z
  .object({ object: z.literal('suppression'), id })
  .strict()
  .meta({ id: 'SuppressionRef', description: 'The id of a suppression that was added or already present.' });
export type SuppressionRef = z.output<typeof suppressionRefSchema>;

export const removalResultSchema = z
  .object({ object: z.literal('suppression'), id, deleted: z.literal(true) })
  .strict()
  .meta({ id: 'RemovalResult' });
export type RemovalResult = z.output<typeof removalResultSchema>;

export const batchAddResultSchema = z
  .object({
    data: z.array(suppressionRefSchema).meta({ description: 'One entry per distinct address, in first-seen order.' }),
  })
  .strict()
  .meta({ id: 'BatchAddResult' });
export type BatchAddResult = z.output<typeof batchAddResultSchema>;

export const batchRemoveResultSchema = z
  .object({
    data: z.array(removalResultSchema).meta({ description: 'One entry per removed suppression; misses are left out.' }),
  })
  .strict()
  .meta({ id: 'BatchRemoveResult' });
export type BatchRemoveResult = z.output<typeof batchRemoveResultSchema>;
