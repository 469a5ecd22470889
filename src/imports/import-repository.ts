import type { GivenOrigin as Origin } from '../domain/origins.js';
import { scopeOfStored, storedScope, type Scope } from '../domain/scope.js';
import type { ListFormat } from '../lists/list-format.js';
import type { InvalidLine } from '../lists/queue-list.js';
import type { Queryable } from '../db/database.js';
import { storableText } from '../domain/text.js';

/** Where the reading of an import stands; `completed` is derived from its jobs. */
export type ImportReadStatus = 'reading' | 'processing' | 'failed';

/** What the reading of an import has counted so far. */
export interface ImportReading {
  lines: number;
  invalid: number;
  queued: number;
  duplicates: number;
  jobs: number;
  invalidLines: readonly InvalidLine[];
}

/** What a finished batch job of an import counted, or why it failed. */
export type ImportJobOutcome =
  | { added: number; already_present: number; allowlisted: number; duplicates: number; invalid: number }
  | { failedReason: string };

export interface ImportRecord extends Omit<ImportReading, 'invalidLines'> {
  id: string;
  accountId: string;
  origin: Origin;
  scope: Scope;
  format: ListFormat;
  status: ImportReadStatus;
  invalidLines: InvalidLine[];
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Jobs recorded as queued or finished, and those finished (failed ones included), and what they counted. */
  recordedJobs: number;
  finishedJobs: number;
  failedJobs: number;
  processed: number;
  added: number;
  alreadyPresent: number;
  /** Addresses the allowlist kept off the list. */
  allowlisted: number;
  /** Duplicates and invalid entries the workers found (the reader catches most before they are queued). */
  jobDuplicates: number;
  jobInvalid: number;
  lastFinishedAt: Date | null;
}

export async function createImport(
  db: Queryable,
  entry: { id: string; accountId: string; origin: Origin; scope: Scope; format: ListFormat },
): Promise<void> {
  await db.query({
    text: `INSERT INTO imports (id, account_id, origin, scope, format, status) VALUES ($1, $2, $3, $4, $5, 'reading')`,
    values: [entry.id, entry.accountId, entry.origin, storedScope(entry.scope), entry.format],
  });
}

/**
 * Records how far the reading got, and, with `status`, that it ended. Only a `reading` import
 * moves: one already ended is left as it is.
 */
export async function recordImportReading(
  db: Queryable,
  id: string,
  reading: ImportReading,
  end?: { status: 'processing' } | { status: 'failed'; error: string },
): Promise<void> {
  await db.query({
    name: 'import-reading',
    text: `UPDATE imports
              SET lines = $2, invalid = $3, queued = $4, duplicates = $5, jobs = $6, invalid_lines = $7,
                  status = $8, error = $9, updated_at = now()
            WHERE id = $1 AND status = 'reading'`,
    values: [
      id,
      reading.lines,
      reading.invalid,
      reading.queued,
      reading.duplicates,
      reading.jobs,
      // A line is shown as read, less what jsonb cannot hold: a list's bytes may carry NUL.
      JSON.stringify(
        reading.invalidLines.map((line) =>
          line.value === undefined ? line : { ...line, value: storableText(line.value) },
        ),
      ),
      end?.status ?? 'reading',
      end?.status === 'failed' ? end.error : null,
    ],
  });
}

/** A job just queued for an import, so that one whose end goes unrecorded can be looked up. */
export async function recordImportJob(db: Queryable, importId: string, jobId: string, entries: number): Promise<void> {
  await db.query({
    name: 'import-job-queued',
    text: `INSERT INTO import_jobs (import_id, job_id, entries) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    values: [importId, jobId, entries],
  });
}

/**
 * A job's end, written once: the first outcome recorded stands, whether the worker wrote it or a
 * reader found it in the queue. The row may not exist yet: the worker can finish a job before the
 * API has recorded queueing it.
 */
export async function recordImportJobOutcome(
  db: Queryable,
  importId: string,
  jobId: string,
  entries: number,
  outcome: ImportJobOutcome,
): Promise<void> {
  const counts = 'failedReason' in outcome ? null : outcome;
  await db.query({
    name: 'import-job-outcome',
    text: `INSERT INTO import_jobs AS j
                  (import_id, job_id, entries, added, already_present, duplicates, invalid, failed_reason, finished_at,
                   allowlisted)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9)
           ON CONFLICT (import_id, job_id) DO UPDATE
              SET added = excluded.added, already_present = excluded.already_present, allowlisted = excluded.allowlisted,
                  duplicates = excluded.duplicates, invalid = excluded.invalid,
                  failed_reason = excluded.failed_reason, finished_at = excluded.finished_at
            WHERE j.finished_at IS NULL`,
    values: [
      importId,
      jobId,
      entries,
      counts?.added ?? 0,
      counts?.already_present ?? 0,
      counts?.duplicates ?? 0,
      counts?.invalid ?? 0,
      'failedReason' in outcome ? outcome.failedReason : null,
      counts?.allowlisted ?? 0,
    ],
  });
}

interface ImportRow {
  id: string;
  account_id: string;
  origin: Origin;
  scope: string;
  format: ListFormat;
  status: ImportReadStatus;
  lines: string;
  invalid: string;
  queued: string;
  duplicates: string;
  jobs: number;
  invalid_lines: InvalidLine[];
  error: string | null;
  created_at: Date;
  updated_at: Date;
  recorded_jobs: string;
  finished_jobs: string;
  failed_jobs: string;
  processed: string;
  added: string;
  already_present: string;
  allowlisted: string;
  job_duplicates: string;
  job_invalid: string;
  last_finished_at: Date | null;
}

/** An import of the account with what its finished jobs counted; null when there is none. */
export async function findImport(db: Queryable, accountId: string, id: string): Promise<ImportRecord | null> {
  const { rows } = await db.query<ImportRow>({
    name: 'import-find',
    text: `SELECT i.*, j.*
             FROM imports i,
                  LATERAL (SELECT count(*) AS recorded_jobs,
                                  count(*) FILTER (WHERE finished_at IS NOT NULL) AS finished_jobs,
                                  count(*) FILTER (WHERE failed_reason IS NOT NULL) AS failed_jobs,
                                  coalesce(sum(entries) FILTER (WHERE finished_at IS NOT NULL), 0) AS processed,
                                  coalesce(sum(added), 0) AS added,
                                  coalesce(sum(already_present), 0) AS already_present,
                                  coalesce(sum(allowlisted), 0) AS allowlisted,
                                  coalesce(sum(duplicates), 0) AS job_duplicates,
                                  coalesce(sum(invalid), 0) AS job_invalid,
                                  max(finished_at) AS last_finished_at
                             FROM import_jobs WHERE import_id = i.id) j
            WHERE i.id = $1 AND i.account_id = $2`,
    values: [id, accountId],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    origin: row.origin,
    scope: scopeOfStored(row.scope),
    format: row.format,
    status: row.status,
    lines: Number(row.lines),
    invalid: Number(row.invalid),
    queued: Number(row.queued),
    duplicates: Number(row.duplicates),
    jobs: row.jobs,
    invalidLines: row.invalid_lines,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    recordedJobs: Number(row.recorded_jobs),
    finishedJobs: Number(row.finished_jobs),
    failedJobs: Number(row.failed_jobs),
    processed: Number(row.processed),
    added: Number(row.added),
    alreadyPresent: Number(row.already_present),
    allowlisted: Number(row.allowlisted),
    jobDuplicates: Number(row.job_duplicates),
    jobInvalid: Number(row.job_invalid),
    lastFinishedAt: row.last_finished_at,
  };
}

/** The oldest jobs of an import whose end is not recorded yet, with their sizes. */
export async function unfinishedImportJobs(
  db: Queryable,
  importId: string,
  limit: number,
): Promise<{ jobId: string; entries: number }[]> {
  const { rows } = await db.query<{ job_id: string; entries: number }>({
    name: 'import-unfinished-jobs',
    text: `SELECT job_id, entries FROM import_jobs
            WHERE import_id = $1 AND finished_at IS NULL
            ORDER BY length(job_id), job_id LIMIT $2`,
    values: [importId, limit],
  });
  return rows.map((row) => ({ jobId: row.job_id, entries: row.entries }));
}

/** Removes imports older than the cutoff, with their jobs; returns how many. */
export async function deleteImportsBefore(db: Queryable, cutoff: Date): Promise<number> {
  const { rowCount } = await db.query({
    text: `DELETE FROM imports WHERE created_at < $1`,
    values: [cutoff],
  });
  return rowCount ?? 0;
}
