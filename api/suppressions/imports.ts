import type { Request, Response } from 'express';
import { importSchema, type ImportResource } from '../../src/contract/imports.js';
import { newId } from '../../src/domain/ids.js';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import { createImport } from '../../src/imports/import-repository.js';
import { readImportStatus } from '../../src/imports/import-status.js';
import { readImport } from '../../src/imports/read-import.js';
import { QueueListError } from '../../src/lists/queue-list.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { authenticatedErrors, jsonAnswer } from '../openapi/responses.js';
import type { SuppressionsDeps } from './deps.js';
import { IMPORT_LIMIT, ImportTooLargeError, importBody, importFormat } from './import-body.js';
import { importParamsSchema, importQuerySchema } from './schemas.js';

const tags = ['Suppressions'];

/** Where the imports are, relative to the suppressions feature. */
const IMPORTS_PATH = '/imports';

const importNotFound = () => new AppError('not_found', 'Import not found.');

function readingFailure({ cause, error }: { cause: unknown; error: string }): AppError {
  if (cause instanceof ImportTooLargeError) {
    return new AppError('payload_too_large', errorMessage('payload_too_large', { limit: IMPORT_LIMIT }));
  }
  if (cause instanceof QueueListError) {
    return new AppError(
      'service_unavailable',
      'The queue is unavailable: the import could not be queued. Try again shortly.',
    );
  }
  return new AppError('validation_error', `The request body could not be read: ${error}.`);
}

/**
 * What is left of a body not read to its end (refused, over the limit, or after a CSV error that
 * ends the reading): dropped when it has all arrived, so the connection serves the next request;
 * otherwise not waited for, and the connection closes once the answer is sent.
 */
function letGoOfBody(req: Request, res: Response): void {
  if (req.readableEnded) return;
  req.unpipe();
  if (req.complete) req.resume();
  else res.set('connection', 'close');
}

const example = {
  object: 'import',
  id: '0190c7f6-3c2a-7b3e-9f00-6d1a2b3c4d5e',
  status: 'completed',
  origin: 'manual',
  scope: null,
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
  allowlisted: 0,
  jobs: 25,
  finished_jobs: 25,
  failed_jobs: 0,
  invalid_lines: [{ line: 4, value: 'not-an-address', reason: 'is not a valid email address' }],
  error: null,
};

const listBody = (description: string, example: string) =>
  ({ schema: { type: 'string' as const, description }, example }) as const;

/** The body is the list itself, read as it arrives: the answer comes once every line is queued. */
export const importEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'post',
  path: IMPORTS_PATH,
  access: 'full',
  // Read as it arrives, in constant memory: no parser buffers it, and no idempotency key fingerprints it.
  body: 'stream',
  doc: {
    operationId: 'importSuppressions',
    tags,
    summary: 'Import a list from a file',
    description:
      'The body is the list itself, up to 100 MB decoded (`Content-Encoding` gzip, deflate or br is decoded): CSV (the address column of a header such as `email` or `Email Address`, else the first column), NDJSON (a JSON string or an object with an `email` per line) or plain text (an address per line). It is read as it arrives, in constant memory, and queued in batch jobs of 2,000 addresses, which the workers write; the answer comes once every line is queued. A form upload is refused: send the file as the body. One request of the rate limit however long it runs; `Idempotency-Key` is not taken (importing a list again adds nothing).',
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
  handler: ({ db, logger, reads, imports: producer }) => {
    const importList = async (req: Request, res: Response): Promise<void> => {
      const query = parseInput(importQuerySchema, req.query);
      const format = importFormat(req, query.format);
      if (!producer) throw new AppError('service_unavailable', 'Imports are not available: no queue is configured.');
      const input = importBody(req);
      const accountId = accountOf(res);
      const id = newId();
      await createImport(db, { id, accountId, origin: query.origin, scope: query.scope ?? null, format });
      const end = await readImport({
        db,
        logger,
        producer,
        importId: id,
        accountId,
        origin: query.origin,
        scope: query.scope ?? null,
        format,
        input,
      });
      // The workers write the entries; until the import ends, each reading of its status marks the
      // account again, so that what a client saw finished it also finds.
      await reads.wrote(accountId);
      if (end.status === 'failed') throw readingFailure(end);
      letGoOfBody(req, res);
      res.status(202).json(await readImportStatus(db, accountId, id));
    };

    return async (req, res) => {
      try {
        await importList(req, res);
      } catch (error) {
        letGoOfBody(req, res);
        throw error;
      }
    };
  },
};

export const getImportEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'get',
  path: `${IMPORTS_PATH}/:import`,
  access: 'full',
  doc: {
    operationId: 'getImport',
    tags,
    summary: 'Follow an import',
    description:
      'Where the import stands, what its finished jobs counted, and its first invalid lines with their line numbers, as `cli import --wait` reports them. Imports are kept for 30 days.',
    request: { params: importParamsSchema },
    responses: {
      200: jsonAnswer('The import.', importSchema, example),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db, reads, imports: producer }) =>
    async (req, res) => {
      const { import: id } = parseInput(importParamsSchema, req.params);
      const found = await readImportStatus(db, accountOf(res), id, producer);
      if (!found) throw importNotFound();
      await reads.wrote(accountOf(res));
      res.json(found satisfies ImportResource);
    },
};
