import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ORIGINS } from '../../src/suppressions/suppression.js';
import { LIST_FORMATS } from '../../src/lists/list-format.js';
import { importParamsSchema, importQuerySchema } from './schemas.js';
import { authenticatedErrors, BEARER_SECURITY, jsonAnswer } from '../openapi/responses.js';

const tags = ['Suppressions'];
const count = (description: string) => z.int().min(0).meta({ description });

/** `.strict()` as in schemas.ts, so an example with an unknown field fails the document's test. */
export const importSchema = z
  .object({
    object: z.literal('import'),
    id: z.uuid(),
    status: z.enum(['reading', 'processing', 'completed', 'failed']).meta({
      description:
        '`reading` while the body arrives, `processing` once every line is queued, `completed` once every job has finished (failed jobs included: see `failed_jobs`), `failed` when the body could not be read to its end (`error` says why; the lines before were still queued).',
    }),
    origin: z.enum(ORIGINS),
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

const example = {
  object: 'import',
  id: '0190c7f6-3c2a-7b3e-9f00-6d1a2b3c4d5e',
  status: 'completed',
  origin: 'manual',
  format: 'csv',
  created_at: '2026-11-23T09:14:02.114Z',
  completed_at: '2026-11-23T09:14:03.870Z',
  lines: 50002,
  invalid: 1,
  queued: 50000,
  duplicates: 0,
  processed: 50000,
  added: 49998,
  already_present: 2,
  jobs: 25,
  finished_jobs: 25,
  failed_jobs: 0,
  invalid_lines: [{ line: 4, value: 'not-an-address', reason: 'is not a valid email address' }],
  error: null,
};

const listBody = (description: string, example: string) =>
  ({ schema: { type: 'string' as const, description }, example }) as const;

/** `POST /suppressions/imports` and `GET /suppressions/imports/{import}`. */
export const importRoutes: RouteConfig[] = [
  {
    method: 'post',
    path: '/suppressions/imports',
    operationId: 'importSuppressions',
    tags,
    summary: 'Import a list from a file',
    description:
      'The body is the list itself, up to 100 MB decoded (`Content-Encoding` gzip, deflate or br is decoded): CSV (the address column of a header such as `email` or `Email Address`, else the first column), NDJSON (a JSON string or an object with an `email` per line) or plain text (an address per line). It is read as it arrives, in constant memory, and queued in batch jobs of 2,000 addresses, which the workers write; the answer comes once every line is queued. A form upload is refused: send the file as the body. One request of the rate limit however long it runs; `Idempotency-Key` is not taken (importing a list again adds nothing).',
    security: BEARER_SECURITY,
    request: {
      query: importQuerySchema,
      body: {
        required: true,
        content: {
          'text/csv': listBody('CSV, with or without a header.', 'Email,Name\njane@example.com,Jane\n'),
          'application/x-ndjson': listBody(
            'One JSON string or `{"email": ...}` object per line.',
            '{"email":"jane@example.com"}\n"joe@example.org"\n',
          ),
          'text/plain': listBody('One address per line.', 'jane@example.com\njoe@example.org\n'),
        },
      },
    },
    responses: {
      202: jsonAnswer('Every line is queued; follow the import at `GET /suppressions/imports/{id}`.', importSchema, {
        ...example,
        status: 'processing',
        completed_at: null,
      }),
      ...authenticatedErrors('payload_too_large'),
    },
  },
  {
    method: 'get',
    path: '/suppressions/imports/{import}',
    operationId: 'getImport',
    tags,
    summary: 'Follow an import',
    description:
      'Where the import stands, what its finished jobs counted, and its first invalid lines with their line numbers, as `cli import --wait` reports them. Imports are kept for 30 days.',
    security: BEARER_SECURITY,
    request: { params: importParamsSchema },
    responses: {
      200: jsonAnswer('The import.', importSchema, example),
      ...authenticatedErrors('not_found'),
    },
  },
];
