import { z } from 'zod';
import { UUID_PATTERN } from '../domain/ids.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './limits.js';

/**
 * The query of every list: `limit`, and the cursors `after` (towards older items) and `before`
 * (towards newer ones), each an item of the list, excluded from the page. Messages are predicates:
 * parseInput puts the field's name in front of them. Apart from `paging.ts` because it reaches
 * `src/domain`, which the console's types must not pull in.
 */

const pageSizeRule = `must be a whole number from 1 to ${MAX_PAGE_SIZE}.`;

export const pageLimit = z
  .string({ error: `must be a single whole number from 1 to ${MAX_PAGE_SIZE}.` })
  .regex(/^[0-9]{1,3}$/, { error: pageSizeRule })
  .transform(Number)
  .refine((limit) => limit >= 1 && limit <= MAX_PAGE_SIZE, { error: pageSizeRule })
  .default(DEFAULT_PAGE_SIZE)
  .meta({ description: `Entries per page, 1 to ${MAX_PAGE_SIZE}.`, default: String(DEFAULT_PAGE_SIZE), example: '50' });

/** An id in a query or body: a UUID in any case, compared lower-cased. `what` names it, e.g. "a webhook id". */
export const uuidParameter = (what: string) =>
  z
    .string({ error: 'must be a string.' })
    .regex(UUID_PATTERN, { error: `must be ${what} (a UUID).` })
    // OpenAPI metadata only: JSON Schema has no regex flags, so the pattern is spelled case-insensitively.
    .meta({ format: 'uuid', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' })
    .transform((id) => id.toLowerCase());

type CursorDoc = Record<string, unknown> & { description: string; example: string };

/** `limit`, `after` and `before` for a list whose cursors are `cursor`; extend it with the list's filters. */
export function cursorQuery<C extends z.ZodType>(cursor: C, docs: { after: CursorDoc; before: CursorDoc }) {
  return z.object({
    limit: pageLimit,
    after: cursor.optional().meta(docs.after),
    before: cursor.optional().meta(docs.before),
  });
}

/** The rule of every cursor query, once it is extended: one direction at a time. */
export function oneCursorAtATime<S extends z.ZodType<{ after?: unknown; before?: unknown }>>(query: S) {
  return query.refine((value) => value.after === undefined || value.before === undefined, {
    error: '`after` and `before` cannot be used together.',
  });
}
