import type { Request, Response, Router } from 'express';
import type { ImportResource } from '../../src/contract/imports.js';
import type { BatchProducer } from '../../src/batches/batch-producer.js';
import type { Database } from '../../src/db/database.js';
import { createImport } from '../../src/imports/import-repository.js';
import { newId } from '../../src/domain/ids.js';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import { readImportStatus } from '../../src/imports/import-status.js';
import { readImport } from '../../src/imports/read-import.js';
import { QueueListError } from '../../src/lists/queue-list.js';
import type { Logger } from '../../src/logger.js';
import { IMPORT_LIMIT, ImportTooLargeError, importBody, importFormat } from './import-body.js';
import { accountOf } from '../http/authenticate.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import { importParamsSchema, importQuerySchema } from './schemas.js';
import { parseInput } from '../http/validation.js';

export interface ImportsOptions {
  /** Queues the batch jobs of imports (and looks them up); without it, imports answer 503. */
  producer?: Pick<BatchProducer, 'add' | 'outcome'>;
  logger: Logger;
}

/** Where an import path is relative to the suppressions router: it takes no JSON body parser. */
export const IMPORTS_PATH = '/imports';

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

/**
 * `POST /suppressions/imports` and `GET /suppressions/imports/{import}`, on the suppressions
 * router (and so behind its guards), before `/:suppression`, which would read `imports` as an address.
 */
export function addImportRoutes(router: Router, mountPath: string, db: Database, options: ImportsOptions): void {
  const { producer, logger } = options;

  // The body is the list itself, read as it arrives: the answer comes once every line is queued.
  const importList = async (req: Request, res: Response): Promise<void> => {
    const query = parseInput(importQuerySchema, req.query);
    const format = importFormat(req, query.format);
    if (!producer) throw new AppError('service_unavailable', 'Imports are not available: no queue is configured.');
    const input = importBody(req);
    const accountId = accountOf(res);
    const id = newId();
    await createImport(db, { id, accountId, origin: query.origin, format });
    const end = await readImport({
      db,
      logger,
      producer,
      importId: id,
      accountId,
      origin: query.origin,
      format,
      input,
    });
    if (end.status === 'failed') throw readingFailure(end);
    letGoOfBody(req, res);
    res.status(202).json(await readImportStatus(db, accountId, id));
  };

  namedRoute(router, mountPath, IMPORTS_PATH)
    .post(async (req, res) => {
      try {
        await importList(req, res);
      } catch (error) {
        letGoOfBody(req, res);
        throw error;
      }
    })
    .all(methodNotAllowed('POST'));

  namedRoute(router, mountPath, `${IMPORTS_PATH}/:import`)
    .get(async (req, res) => {
      const { import: id } = parseInput(importParamsSchema, req.params);
      const found = await readImportStatus(db, accountOf(res), id, producer);
      if (!found) throw importNotFound();
      res.json(found satisfies ImportResource);
    })
    .all(methodNotAllowed('GET'));
}
