import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { importSchema } from '../../src/contract/imports.js';
import { importParamsSchema, importQuerySchema } from './schemas.js';
import { authenticatedErrors, BEARER_SECURITY, jsonAnswer } from '../openapi/responses.js';

const tags = ['Suppressions'];

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
