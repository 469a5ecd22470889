import type { Readable } from 'node:stream';
import type { Scope } from '../domain/scope.js';
import type { BatchProducer } from '../batches/batch-producer.js';
import type { Database } from '../db/database.js';
import { recordImportJob, recordImportReading, type ImportReading } from './import-repository.js';
import type { Logger } from '../logger.js';
import type { GivenOrigin as Origin } from '../domain/origins.js';
import type { ListFormat } from '../lists/list-format.js';
import { QueueListError, queueList, type InvalidLine, type QueueSummary } from '../lists/queue-list.js';
import { readAddresses } from '../lists/read-addresses.js';

/** Invalid lines an import keeps with their reasons; the rest are only counted. */
export const MAX_INVALID_LINES_KEPT = 100;

/** Addresses per batch job: small enough that an import's progress moves every few thousand lines. */
export const IMPORT_JOB_ENTRIES = 2000;

/** How often the counts of an import being read are written for its readers. */
const RECORD_EVERY_MS = 1000;

export interface ImportInput {
  db: Database;
  logger: Logger;
  producer: Pick<BatchProducer, 'add'>;
  importId: string;
  accountId: string;
  origin: Origin;
  scope: Scope;
  format: ListFormat;
  input: Readable;
}

/** How the reading of an import ended. */
export type ImportReadResult = { status: 'processing' } | { status: 'failed'; error: string; cause: unknown };

const CUT_SHORT = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED']);

/** Why the reading stopped, in words for the import's readers. */
function failureOf(error: unknown): string {
  if (error instanceof QueueListError) {
    const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
    return `the jobs could not be queued (${cause}); the lines before were, and sending the file again is safe`;
  }
  const { code, errno } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    errno?: unknown;
  };
  if (typeof code === 'string' && (CUT_SHORT.has(code) || (error instanceof Error && error.message === 'aborted'))) {
    return 'the upload ended before the list did; the lines read before were queued';
  }
  // zlib's errors (gzip, deflate and br alike) carry a numeric errno and, unlike a socket's, no syscall.
  if (typeof errno === 'number' && !(typeof error === 'object' && error !== null && 'syscall' in error)) {
    return 'the body does not decode as its Content-Encoding says; the lines read before were queued';
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads an import's list and queues its addresses in batch jobs of the import, as `cli import`
 * does and in constant memory: reading waits for Redis, one job at a time. The counts and the
 * first invalid lines are written to the import as it goes and once it ends; a list that cannot be
 * read to its end (the upload cut, too large, Redis away) leaves the import `failed`, with the jobs
 * already queued still processed.
 */
export async function readImport(run: ImportInput): Promise<ImportReadResult> {
  const invalidLines: InvalidLine[] = [];
  let summary: Readonly<QueueSummary> = { lines: 0, invalid: 0, queued: 0, duplicates: 0, jobs: 0 };
  const reading = (): ImportReading => ({ ...summary, invalidLines });

  let lastRecorded = Date.now();
  let recording: Promise<void> | undefined;
  const recordNow = (): void => {
    if (recording || Date.now() - lastRecorded < RECORD_EVERY_MS) return;
    lastRecorded = Date.now();
    recording = recordImportReading(run.db, run.importId, reading())
      .catch((error: unknown) => run.logger.warn({ err: error, importId: run.importId }, 'could not record progress'))
      .finally(() => (recording = undefined));
  };

  const producer = {
    add: async (job: Parameters<BatchProducer['add']>[0]): Promise<string> => {
      const id = await run.producer.add({ ...job, import_id: run.importId });
      await recordImportJob(run.db, run.importId, id, job.emails.length);
      return id;
    },
    remove: () => Promise.reject(new Error('an import only adds')),
  };

  let end: ImportReadResult;
  try {
    summary = await queueList(
      readAddresses(run.input, { format: run.format }),
      producer,
      { kind: 'add', accountId: run.accountId, origin: run.origin, scope: run.scope },
      {
        chunkSize: IMPORT_JOB_ENTRIES,
        onInvalid: (problem) => {
          if (invalidLines.length < MAX_INVALID_LINES_KEPT) invalidLines.push(problem);
        },
        onProgress: (now) => {
          summary = { ...now };
          recordNow();
        },
      },
    );
    end = { status: 'processing' };
  } catch (error) {
    end = { status: 'failed', error: failureOf(error), cause: error };
    if (error instanceof QueueListError) summary = error.summary;
  }
  await recording;
  await recordImportReading(run.db, run.importId, reading(), end);
  return end;
}
