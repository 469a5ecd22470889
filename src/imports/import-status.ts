import type { BatchProducer } from '../batches/batch-producer.js';
import { batchCount } from '../batches/batch-counts.js';
import type { Queryable } from '../db/database.js';
import { findImport, recordImportJobOutcome, unfinishedImportJobs, type ImportRecord } from './import-repository.js';
import type { ImportResource, ImportStatus } from '../contract/imports.js';

/** An import that has been `reading` this long without a word has lost its upload (its process ended). */
export const STALE_READING_MS = 2 * 60_000;

/** How long an import's record is kept for its readers. */
export const IMPORT_RETENTION_MS = 30 * 24 * 3600_000;

/** Jobs looked up in the queue per read of an import, oldest first. */
const LOOKUPS_PER_READ = 5;

export type { ImportResource, ImportStatus };

const STALE_ERROR = 'the upload stopped arriving before its end; the lines read before were queued';

function statusOf(record: ImportRecord, now: number): { status: ImportStatus; error: string | null } {
  if (record.status === 'reading') {
    return now - record.updatedAt.getTime() > STALE_READING_MS
      ? { status: 'failed', error: STALE_ERROR }
      : { status: 'reading', error: null };
  }
  if (record.status === 'failed') return { status: 'failed', error: record.error };
  return { status: record.finishedJobs >= record.jobs ? 'completed' : 'processing', error: null };
}

/** The import as the API shows it; `completed` once every job it queued has finished. */
export function toImportResource(record: ImportRecord, now = Date.now()): ImportResource {
  const { status, error } = statusOf(record, now);
  return {
    object: 'import',
    id: record.id,
    status,
    origin: record.origin,
    scope: record.scope,
    format: record.format,
    created_at: record.createdAt.toISOString(),
    completed_at: status === 'completed' ? (record.lastFinishedAt ?? record.updatedAt).toISOString() : null,
    lines: record.lines,
    invalid: record.invalid + record.jobInvalid,
    queued: record.queued,
    duplicates: record.duplicates + record.jobDuplicates,
    processed: record.processed,
    added: record.added,
    already_present: record.alreadyPresent,
    allowlisted: record.allowlisted,
    jobs: record.jobs,
    finished_jobs: record.finishedJobs,
    failed_jobs: record.failedJobs,
    invalid_lines: record.invalidLines,
    error,
  };
}

/**
 * Looks up in the queue the oldest jobs of an import whose end was not recorded (the worker could
 * not write it, or its process ended as the job did) and records those that have ended.
 */
async function settleFromQueue(
  db: Queryable,
  producer: Pick<BatchProducer, 'outcome'>,
  importId: string,
): Promise<boolean> {
  let settled = false;
  for (const job of await unfinishedImportJobs(db, importId, LOOKUPS_PER_READ)) {
    const found = await producer.outcome(job.jobId);
    if (found.state === 'pending') continue;
    const outcome =
      found.state === 'completed'
        ? {
            added: batchCount(found.result, 'added'),
            already_present: batchCount(found.result, 'already_present'),
            allowlisted: batchCount(found.result, 'allowlisted'),
            duplicates: batchCount(found.result, 'duplicates'),
            invalid: batchCount(found.result, 'invalid'),
          }
        : { failedReason: found.state === 'failed' ? found.reason : 'the job is no longer in the queue' };
    await recordImportJobOutcome(db, importId, job.jobId, job.entries, outcome);
    settled = true;
  }
  return settled;
}

/**
 * An import of the account as it stands, null when there is none. Jobs still open are looked up
 * in the queue when one is given (and Redis answers), so an import never waits on a lost record.
 */
export async function readImportStatus(
  db: Queryable,
  accountId: string,
  id: string,
  producer?: Pick<BatchProducer, 'outcome'>,
): Promise<ImportResource | null> {
  const record = await findImport(db, accountId, id);
  if (!record) return null;
  if (!producer || record.recordedJobs <= record.finishedJobs) return toImportResource(record);
  let settled: boolean;
  try {
    settled = await settleFromQueue(db, producer, id);
  } catch {
    settled = false;
  }
  const now = settled ? await findImport(db, accountId, id) : record;
  return toImportResource(now ?? record);
}
