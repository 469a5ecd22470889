import { z } from 'zod';
import { UUID_PATTERN } from '../domain/ids.js';
import { GIVEN_ORIGINS } from '../domain/origins.js';
import { MAX_BATCH_JOB_ENTRIES } from '../queues.js';
import { MAX_REASON_LENGTH } from '../contract/limits.js';
import { SCOPE_PATTERN, SCOPE_RULE } from '../domain/scope.js';
import { isStorableText, UNSTORABLE_TEXT_RULE } from '../domain/text.js';
import type { BatchCounts } from './batch-counts.js';

const uuid = z
  .string()
  .regex(UUID_PATTERN, { error: 'must be a UUID' })
  .transform((value) => value.toLowerCase());

/** A named scope; absent or null for the whole account. */
const scope = z
  .string({ error: 'must be a string' })
  .regex(SCOPE_PATTERN, { error: `must be a scope: ${SCOPE_RULE}` })
  .nullable()
  .default(null);

// Entries are checked one by one by the worker, which reports each bad one instead of refusing the job.
const entries = z
  .array(z.string({ error: 'must be strings' }), { error: 'must be an array of strings' })
  .min(1, { error: 'must not be empty' })
  .max(MAX_BATCH_JOB_ENTRIES, { error: `must have at most ${MAX_BATCH_JOB_ENTRIES} entries` });

/** Job `add`: put addresses on an account's list. */
export const addBatchSchema = z
  .object(
    {
      account_id: uuid,
      emails: entries,
      origin: z.enum(GIVEN_ORIGINS, { error: `must be one of ${GIVEN_ORIGINS.join(', ')}` }).default('manual'),
      // The email that caused it; null for entries imported from another provider.
      source_id: uuid.nullable().default(null),
      // The scope the entries are for.
      scope,
      // The HTTP import the job belongs to: the worker records its counts there.
      import_id: uuid.optional(),
    },
    { error: 'the job data must be a JSON object' },
  )
  .refine((job) => job.origin !== 'manual' || job.source_id === null, {
    error: 'must be null when origin is manual',
    path: ['source_id'],
  });

/**
 * Job `remove`: take addresses, or entries by id, off an account's list. An entry a complaint put
 * there is kept (and counted `protected`) unless the job says `force` with a `reason`.
 */
export const removeBatchSchema = z
  .object(
    {
      account_id: uuid,
      emails: entries.optional(),
      ids: entries.optional(),
      // The scope of the addresses' entries (ids name theirs whatever it is).
      scope,
      force: z.boolean({ error: 'must be a boolean' }).default(false),
      reason: z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(MAX_REASON_LENGTH, { error: `must be at most ${MAX_REASON_LENGTH} characters` })
        .refine(isStorableText, { error: UNSTORABLE_TEXT_RULE })
        .optional(),
    },
    { error: 'the job data must be a JSON object' },
  )
  .refine((job) => (job.emails === undefined) !== (job.ids === undefined), { error: 'give either emails or ids' })
  .refine((job) => !job.force || job.reason !== undefined, { error: 'is required with force', path: ['reason'] });

export type AddBatchInput = z.input<typeof addBatchSchema>;
export type AddBatch = z.output<typeof addBatchSchema>;
export type RemoveBatchInput = z.input<typeof removeBatchSchema>;
export type RemoveBatch = z.output<typeof removeBatchSchema>;

export class InvalidBatchError extends Error {
  override name = 'InvalidBatchError';
}

function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    issue.path.length ? `${issue.path.join('.')} ${issue.message}` : issue.message,
  );
  throw new InvalidBatchError(`invalid batch: ${problems.join('; ')}`);
}

export const parseAddBatch = (data: unknown): AddBatch => parse(addBatchSchema, data);
export const parseRemoveBatch = (data: unknown): RemoveBatch => parse(removeBatchSchema, data);

export interface InvalidEntry {
  /** Position in the job's entries, from 0. */
  index: number;
  value: string;
  reason: string;
}

/** What a batch job returns: its counts (batch-counts.ts), and the first entries of two of them. */
export interface BatchResult extends BatchCounts {
  /** Entries in the job. */
  total: number;
  /** The first entries counted `protected` (at most 100). */
  protected_entries: { id: string; email: string }[];
  /** The first invalid entries with their reasons (at most 100). */
  invalid_entries: InvalidEntry[];
}
