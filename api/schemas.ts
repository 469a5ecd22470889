import { z } from 'zod';
import { UUID_PATTERN } from '../src/domain/ids.js';
import { ORIGINS } from '../src/domain/suppression.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_BATCH_ITEMS = 100;
/** Addresses one send-time check may ask about. */
export const MAX_CHECK_ITEMS = 1000;

// Messages are predicates: parseInput puts the field's name in front of them.
const suppressionId = z
  .string({ error: 'must be a string.' })
  .regex(UUID_PATTERN, { error: 'must be a suppression id (a UUID).' })
  // OpenAPI metadata only (api/openapi/): JSON Schema has no regex flags, so the pattern is spelled case-insensitively.
  .meta({ format: 'uuid', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' })
  .transform((id) => id.toLowerCase());

const pageSize = z
  .string({ error: `must be a single whole number from 1 to ${MAX_PAGE_SIZE}.` })
  .regex(/^[0-9]{1,3}$/, { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}.` })
  .transform(Number)
  .refine((limit) => limit >= 1 && limit <= MAX_PAGE_SIZE, {
    error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}.`,
  });

const origin = z.enum(ORIGINS, { error: `must be one of ${ORIGINS.join(', ')}.` });

export const listQuerySchema = z
  .object({
    limit: pageSize.default(DEFAULT_PAGE_SIZE).meta({
      description: `Entries per page, 1 to ${MAX_PAGE_SIZE}.`,
      default: String(DEFAULT_PAGE_SIZE),
      example: '50',
    }),
    after: suppressionId.optional().meta({
      description: 'A suppression id: the page of entries just older than it (the next page). Not with `before`.',
      example: '019cebab-8d7d-76a0-8f24-546e4de3bc59',
    }),
    before: suppressionId.optional().meta({
      description: 'A suppression id: the page of entries just newer than it (the previous page). Not with `after`.',
      example: '019cebab-9165-711e-8683-335430abe2ad',
    }),
    origin: origin.optional().meta({ description: 'Only entries of this origin.', example: 'bounce' }),
  })
  .refine((query) => query.after === undefined || query.before === undefined, {
    error: '`after` and `before` cannot be used together.',
  });

function batchOf<T extends z.ZodType>(item: T, max = MAX_BATCH_ITEMS) {
  return z
    .array(item, { error: `must be an array of 1 to ${max} items.` })
    .min(1, { error: `must have at least 1 item.` })
    .max(max, { error: `must have at most ${max} items.` });
}

const emailString = z.string({ error: 'must be a string.' });
const bodyObject = { error: 'The request body must be a JSON object.' };

export const addBodySchema = z.object({ email: emailString }, bodyObject);

export const batchAddBodySchema = z.object({ emails: batchOf(emailString) }, bodyObject);

export const checkBodySchema = z.object({ emails: batchOf(emailString, MAX_CHECK_ITEMS) }, bodyObject);

export const batchRemoveBodySchema = z
  .object({ emails: batchOf(emailString).optional(), ids: batchOf(suppressionId).optional() }, bodyObject)
  .refine((body) => body.emails === undefined || body.ids === undefined, {
    error: 'Provide either `emails` or `ids`, not both.',
  })
  .refine((body) => body.emails !== undefined || body.ids !== undefined, {
    error: 'Provide `emails` or `ids`.',
  });
