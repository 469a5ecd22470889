import { z } from 'zod';
import { normalizeDomain, parseEmailFilter } from '../../src/suppressions/email-search.js';
import { GIVEN_ORIGINS, ORIGINS } from '../../src/domain/origins.js';
import { EXPORT_FORMATS } from '../../src/export/export-formats.js';
import { LIST_FORMATS } from '../../src/contract/imports.js';
import { cursorQuery, oneCursorAtATime, uuidParameter } from '../../src/contract/cursor-query.js';
import { MAX_BATCH_ITEMS, MAX_CHECK_ITEMS, MAX_REASON_LENGTH } from '../../src/contract/limits.js';
import { scopeInput } from '../../src/contract/scope.js';
import { isStorableText, UNSTORABLE_TEXT_RULE } from '../../src/domain/text.js';

// Messages are predicates: parseInput puts the field's name in front of them.
const suppressionId = uuidParameter('a suppression id');

const origin = z.enum(ORIGINS, { error: `must be one of ${ORIGINS.join(', ')}.` });

/** Which of an address's entries an operation by address means: the whole account's when absent. */
const entryScope = scopeInput.optional().meta({
  description:
    "The named scope of the entry meant; without it, the whole account's entry. An id names its entry whatever its scope.",
});

/** `GET /suppressions/{suppression}`. */
export const retrieveQuerySchema = z.object({ scope: entryScope });

const emailFilter = z.string({ error: 'must be a string.' }).transform((raw, context) => {
  const filter = parseEmailFilter(raw);
  if ('problem' in filter) {
    context.addIssue({ code: 'custom', message: `${filter.problem}.` });
    return z.NEVER;
  }
  return filter;
});

const domainFilter = z.string({ error: 'must be a string.' }).transform((raw, context) => {
  const domain = normalizeDomain(raw);
  if (domain === null) {
    context.addIssue({ code: 'custom', message: 'must be a domain name, such as `example.com`.' });
    return z.NEVER;
  }
  return domain;
});

// Compared as a Date, to the millisecond: `created_at` is shown to the millisecond, so an entry's
// own `created_at` given as `created_after` leaves that entry out.
const timestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone, such as `2026-03-14T09:26:53Z`.' })
  .transform((value) => new Date(value));

export const listQuerySchema = oneCursorAtATime(
  cursorQuery(suppressionId, {
    after: {
      description: 'A suppression id: the page of entries just older than it (the next page). Not with `before`.',
      example: '019cebab-8d7d-76a0-8f24-546e4de3bc59',
    },
    before: {
      description: 'A suppression id: the page of entries just newer than it (the previous page). Not with `after`.',
      example: '019cebab-9165-711e-8683-335430abe2ad',
    },
  }).extend({
    origin: origin.optional().meta({ description: 'Only entries of this origin.', example: 'bounce' }),
    scope: scopeInput.optional().meta({ description: 'Only the entries of this named scope.' }),
    email: emailFilter.optional().meta({
      description:
        'Only this address (trimmed, compared case-insensitively), or, ending in `*`, the addresses that start with what comes before it (`jane*`, `jane@exa*`). Percent-encode `+` as `%2B`.',
      example: 'jane*',
    }),
    domain: domainFilter.optional().meta({
      description: 'Only addresses of this domain, exactly (`example.com` does not match `mail.example.com`).',
      example: 'example.com',
    }),
    created_after: timestamp.optional().meta({
      description: 'Only entries created after this moment (exclusive), compared to the millisecond.',
      example: '2026-03-14T00:00:00Z',
    }),
    created_before: timestamp.optional().meta({
      description: 'Only entries created before this moment (exclusive), compared to the millisecond.',
      example: '2026-03-15T00:00:00+01:00',
    }),
  }),
).refine(
  (query) =>
    query.created_after === undefined ||
    query.created_before === undefined ||
    query.created_after < query.created_before,
  { error: 'must be earlier than `created_before`.', path: ['created_after'] },
);

/** `GET /suppressions/export`: the file's format, optionally one origin or scope, and the CSV's formula escaping. */
export const exportQuerySchema = z
  .object({
    format: z
      .enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(', ')}.` })
      .default('csv')
      .meta({
        description:
          '`csv` (header `id,email,origin,source_id,created_at,scope`) or `ndjson` (one Suppression per line, as the list shows it).',
        example: 'csv',
      }),
    origin: origin.optional().meta({ description: 'Only entries of this origin.', example: 'bounce' }),
    scope: scopeInput.optional().meta({ description: 'Only the entries of this named scope.' }),
    escape_formulas: z
      .enum(['true', 'false'], { error: 'must be `true` or `false`.' })
      .transform((value) => value === 'true')
      .optional()
      .meta({
        description:
          "CSV only: `true` writes the file for a spreadsheet: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (or the full-width `＝`, `＋`, `－`, `＠`) gets a `'` in front and is quoted, so that it is shown as text rather than run as a formula. Without it (or `false`) every value is exactly as stored. With `format=ndjson`, `true` answers 422.",
        example: 'true',
      }),
  })
  // NDJSON is not opened as a spreadsheet, and a prefix there would only corrupt the data.
  .refine((query) => query.escape_formulas !== true || query.format === 'csv', {
    error: 'is only for `format=csv`.',
    path: ['escape_formulas'],
  });

/** `POST /suppressions/imports`: the origin the entries get, and the list's format when its type does not say. */
export const importQuerySchema = z.object({
  origin: z
    .enum(GIVEN_ORIGINS, { error: `must be one of ${GIVEN_ORIGINS.join(', ')}.` })
    .default('manual')
    .meta({ description: 'The origin every imported entry gets.', example: 'manual' }),
  scope: scopeInput.optional().meta({
    description: 'The named scope every imported entry gets; without it, the entries are for the whole account.',
  }),
  format: z
    .enum(LIST_FORMATS, { error: `must be one of ${LIST_FORMATS.join(', ')}.` })
    .optional()
    .meta({
      description:
        "The list's format; when absent, the one `Content-Type` names (`text/csv`, `application/x-ndjson`, `text/plain`), else CSV.",
      example: 'csv',
    }),
});

/** `GET /suppressions/imports/{import}`. */
export const importParamsSchema = z.object({ import: uuidParameter('an import id') });

const eventIdProblem = 'must be an event id (1 to 255 characters).';

/** An audit record's id: whatever the upstream sent (1 to 255 characters), or one of ours for a removal. */
const eventCursor = z
  .string({ error: 'must be a string.' })
  .min(1, { error: eventIdProblem })
  .max(255, { error: eventIdProblem })
  // PostgreSQL text cannot hold NUL: such a value names no event, and is refused before it is sent.
  .refine((id) => !id.includes('\u0000'), { error: eventIdProblem });

export const historyQuerySchema = oneCursorAtATime(
  cursorQuery(eventCursor, {
    after: {
      description:
        "An `event_id` of this address's history: the page of records just older than it. Not with `before`.",
      example: 'ses-0102018f5e2c9b1a-7d1c',
    },
    before: {
      description: "An `event_id` of this address's history: the page of records just newer than it. Not with `after`.",
      example: '019cebab-9165-711e-8683-335430abe2ad',
    },
  }),
);

function batchOf<T extends z.ZodType>(item: T, max = MAX_BATCH_ITEMS) {
  return z
    .array(item, { error: `must be an array of 1 to ${max} items.` })
    .min(1, { error: `must have at least 1 item.` })
    .max(max, { error: `must have at most ${max} items.` });
}

const emailString = z.string({ error: 'must be a string.' });
const bodyObject = { error: 'The request body must be a JSON object.' };

const addScope = scopeInput.optional().meta({
  description: 'The named scope the entry is for; without it, the whole account (every send).',
});

export const addBodySchema = z.object({ email: emailString, scope: addScope }, bodyObject);

export const batchAddBodySchema = z.object({ emails: batchOf(emailString), scope: addScope }, bodyObject);

export const checkBodySchema = z.object(
  {
    emails: batchOf(emailString, MAX_CHECK_ITEMS),
    scope: scopeInput.optional().meta({
      description:
        "The send's scope: an address is suppressed when it has an entry for the whole account or one in this scope. Without it, only entries for the whole account count.",
    }),
  },
  bodyObject,
);

/** The caller's words for a removal: recorded with it, and required with `force`. */
const removalReason = z
  .string({ error: 'must be a string.' })
  .trim()
  .min(1, { error: 'must not be empty.' })
  .max(MAX_REASON_LENGTH, { error: `must be at most ${MAX_REASON_LENGTH} characters.` })
  .refine(isStorableText, { error: `${UNSTORABLE_TEXT_RULE}.` })
  .meta({ description: 'Why the entry is removed, kept in its history. Required with `force`.' });

const forceDescription =
  'Removes entries a complaint put on the list too; without it, such an entry refuses the removal (409 `complaint_protected`). Needs a `reason`.';

/** `force` without a `reason` is refused: a complaint's entry is not undone without saying why. */
function reasonWithForce(removal: { force?: boolean | undefined; reason?: string | undefined }): boolean {
  return removal.force !== true || removal.reason !== undefined;
}
const reasonRequired = { error: 'is required with `force`.', path: ['reason'] };

export const removalQuerySchema = z
  .object({
    force: z
      .enum(['true', 'false'], { error: 'must be `true` or `false`.' })
      .transform((value) => value === 'true')
      .optional()
      .meta({ description: forceDescription }),
    reason: removalReason.optional(),
    scope: entryScope,
  })
  .refine(reasonWithForce, reasonRequired);

export const batchRemoveBodySchema = z
  .object(
    {
      emails: batchOf(emailString).optional(),
      ids: batchOf(suppressionId).optional(),
      force: z.boolean({ error: 'must be `true` or `false`.' }).optional().meta({ description: forceDescription }),
      reason: removalReason.optional(),
      scope: entryScope,
    },
    bodyObject,
  )
  .refine((body) => body.emails === undefined || body.ids === undefined, {
    error: 'Provide either `emails` or `ids`, not both.',
  })
  .refine((body) => body.emails !== undefined || body.ids !== undefined, {
    error: 'Provide `emails` or `ids`.',
  })
  .refine(reasonWithForce, reasonRequired);

/** `{suppression}` of the paths: an id or an address, told apart by the route. */
export const suppressionParamsSchema = z.object({
  suppression: z.string().min(1).meta({
    description: 'A suppression id (UUID) or the suppressed email address (percent-encoded; `+` is literal).',
    example: '019cebab-8995-77f7-9262-77a618303564',
  }),
});
