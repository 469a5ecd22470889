import { z } from 'zod';

/**
 * The envelope of every page of a list: `{object: 'list', has_more, data}`, newest first, paged
 * with the cursor query of `cursor-query.ts`. `of` names the items in `has_more`'s description.
 */
export function pageOf<T extends z.ZodType>(item: T, page: { id: string; of: string; order: string }) {
  return z
    .object({
      object: z.literal('list'),
      has_more: z
        .boolean()
        .meta({ description: `Whether more ${page.of} exist beyond this page in the direction of travel.` }),
      data: z.array(item).meta({ description: page.order }),
    })
    .strict()
    .meta({ id: page.id });
}
