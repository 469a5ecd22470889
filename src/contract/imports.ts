import { z } from 'zod';
import { scopeOutput } from './scope.js';
import { GIVEN_ORIGINS } from '../domain/origins.js';
import { count } from './fields.js';

/** The formats a list is read in (and `--format` of `cli import` offers). */
export const LIST_FORMATS = ['csv', 'ndjson', 'txt'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export const IMPORT_STATUSES = ['reading', 'processing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An import as `POST /suppressions/imports` and `GET /suppressions/imports/{import}` answer it. */
export const importSchema = z
  .object({
    object: z.literal('import'),
    id: z.uuid(),
    status: z.enum(IMPORT_STATUSES).meta({
      description:
        '`reading` while the body arrives, `processing` once every line is queued, `completed` once every job has finished (failed jobs included: see `failed_jobs`), `failed` when the body could not be read to its end (`error` says why; the lines before were still queued).',
    }),
    origin: z.enum(GIVEN_ORIGINS),
    scope: scopeOutput.meta({ description: 'The scope every imported entry is for: `null` for the whole account.' }),
    format: z.enum(LIST_FORMATS),
    created_at: z.iso.datetime({ offset: true }),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    lines: count('Lines read, blank ones and a header included.'),
    invalid: count('Lines with no valid address.'),
    queued: count('Addresses queued.'),
    duplicates: count('Lines repeating an address already queued in the same job.'),
    processed: count('Addresses of the finished jobs: `processed` of `queued` is the progress.'),
    added: count('Addresses put on the list.'),
    already_present: count('Addresses that were on the list already.'),
    allowlisted: count('Addresses the account’s allowlist covers, which were not added.'),
    jobs: count('Batch jobs queued.'),
    finished_jobs: count('Jobs finished, failed ones included.'),
    failed_jobs: count('Jobs that failed for good; their addresses were not all written.'),
    invalid_lines: z
      .array(
        z
          .object({ line: z.int().min(1), value: z.string().optional(), reason: z.string() })
          .strict()
          .meta({ description: 'A line (from 1) that was not queued, its value when it had one, and why.' }),
      )
      .meta({ description: 'The first 100 invalid lines; the rest are only counted.' }),
    error: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'Import' });
export type ImportResource = z.output<typeof importSchema>;
