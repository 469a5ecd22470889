import type { Queryable } from '../db/database.js';
import type { ReclassificationResource } from '../contract/bounces.js';
import type { BounceEvidenceColumns } from '../domain/event-columns.js';

export type ReclassificationStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A run of the classifier over an account's stored records, as `bounce_reclassifications` holds it. */
export interface Reclassification {
  id: string;
  account_id: string;
  dry_run: boolean;
  status: ReclassificationStatus;
  classifier_version: string;
  entries_total: number | null;
  entries_examined: number;
  entries_without_evidence: number;
  records_examined: number;
  lifted: number;
  lifted_by_category: Record<string, number>;
  records_by_category: Record<string, number>;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = `id, account_id, dry_run, status, classifier_version, entries_total, entries_examined,
  entries_without_evidence, records_examined, lifted, lifted_by_category, records_by_category, error,
  created_at, started_at, finished_at`;

export async function createReclassification(
  db: Queryable,
  run: { id: string; accountId: string; dryRun: boolean; classifierVersion: string },
): Promise<Reclassification> {
  const { rows } = await db.query<Reclassification>({
    text: `INSERT INTO bounce_reclassifications (id, account_id, dry_run, classifier_version)
           VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    values: [run.id, run.accountId, run.dryRun, run.classifierVersion],
  });
  return rows[0] as Reclassification;
}

/** The account's run, or null when it has none of that id. */
export async function findReclassification(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<Reclassification | null> {
  const { rows } = await db.query<Reclassification>({
    name: 'reclassification-by-id',
    text: `SELECT ${COLUMNS} FROM bounce_reclassifications WHERE account_id = $1 AND id = $2`,
    values: [accountId, id],
  });
  return rows[0] ?? null;
}

/** The run of this id, whatever its account: for the worker that runs it. */
export async function reclassificationById(db: Queryable, id: string): Promise<Reclassification | null> {
  const { rows } = await db.query<Reclassification>({
    text: `SELECT ${COLUMNS} FROM bounce_reclassifications WHERE id = $1`,
    values: [id],
  });
  return rows[0] ?? null;
}

/** Marks a run started, with the number of entries it will examine; a run started before starts again from nothing. */
export async function startReclassification(db: Queryable, id: string, entriesTotal: number): Promise<void> {
  await db.query({
    text: `UPDATE bounce_reclassifications SET status = 'running', started_at = now(), entries_total = $2,
             entries_examined = 0, entries_without_evidence = 0, records_examined = 0, lifted = 0,
             lifted_by_category = '{}', records_by_category = '{}', error = NULL, finished_at = NULL
           WHERE id = $1`,
    values: [id, entriesTotal],
  });
}

export interface ReclassificationProgress {
  entriesExamined: number;
  entriesWithoutEvidence: number;
  recordsExamined: number;
  lifted: number;
  liftedByCategory: Record<string, number>;
  recordsByCategory: Record<string, number>;
}

/** Adds one batch's counts to the run's. */
export async function addReclassificationProgress(
  db: Queryable,
  id: string,
  progress: ReclassificationProgress,
): Promise<void> {
  await db.query({
    text: `UPDATE bounce_reclassifications r SET
             entries_examined = r.entries_examined + $2,
             entries_without_evidence = r.entries_without_evidence + $3,
             records_examined = r.records_examined + $4,
             lifted = r.lifted + $5,
             lifted_by_category = (SELECT COALESCE(jsonb_object_agg(key, total), '{}') FROM (
               SELECT key, sum(value::int) AS total
               FROM (SELECT * FROM jsonb_each_text(r.lifted_by_category) UNION ALL SELECT * FROM jsonb_each_text($6::jsonb)) AS counts
               GROUP BY key) AS summed),
             records_by_category = (SELECT COALESCE(jsonb_object_agg(key, total), '{}') FROM (
               SELECT key, sum(value::int) AS total
               FROM (SELECT * FROM jsonb_each_text(r.records_by_category) UNION ALL SELECT * FROM jsonb_each_text($7::jsonb)) AS counts
               GROUP BY key) AS summed)
           WHERE id = $1`,
    values: [
      id,
      progress.entriesExamined,
      progress.entriesWithoutEvidence,
      progress.recordsExamined,
      progress.lifted,
      JSON.stringify(progress.liftedByCategory),
      JSON.stringify(progress.recordsByCategory),
    ],
  });
}

export async function finishReclassification(db: Queryable, id: string, error: string | null = null): Promise<void> {
  await db.query({
    text: `UPDATE bounce_reclassifications SET status = $2, error = $3, finished_at = now() WHERE id = $1`,
    values: [id, error === null ? 'completed' : 'failed', error],
  });
}

/** An account's entries of origin `bounce`, a page at a time in id order. */
export async function bounceEntriesAfter(
  db: Queryable,
  accountId: string,
  after: string | null,
  limit: number,
): Promise<{ id: string; email: string }[]> {
  const { rows } = await db.query<{ id: string; email: string }>({
    name: 'reclassification-entries',
    text: `SELECT id, email FROM suppressions
           WHERE account_id = $1 AND origin = 'bounce' AND ($2::uuid IS NULL OR id > $2::uuid)
           ORDER BY id LIMIT $3`,
    values: [accountId, after, limit],
  });
  return rows;
}

export async function countBounceEntries(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>({
    text: `SELECT count(*)::int AS count FROM suppressions WHERE account_id = $1 AND origin = 'bounce'`,
    values: [accountId],
  });
  return rows[0]?.count ?? 0;
}

/** The database's time now, by which records that arrive later are told apart. */
export async function databaseNow(db: Queryable): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>({ text: 'SELECT clock_timestamp() AS now' });
  return (rows[0] as { now: Date }).now;
}

/** A bounce or complaint as recorded: the evidence a reclassification reads again. */
export interface EvidenceRecord extends BounceEvidenceColumns {
  email: string;
  type: 'bounce' | 'complaint';
  complaint_feedback_type: string | null;
  occurred_at: Date | null;
}

/**
 * The bounces and complaints recorded for these addresses since each one's last removal (what
 * happened before a removal is not the present entry's evidence), oldest first. The removals of
 * `exceptRemovalsOfRun` are passed over: a run re-reading, before it commits, what it lifts.
 */
export async function evidenceOf(
  db: Queryable,
  accountId: string,
  emails: readonly string[],
  exceptRemovalsOfRun: string | null = null,
): Promise<EvidenceRecord[]> {
  const { rows } = await db.query<EvidenceRecord>({
    text: `SELECT e.email, e.type, e.bounce_type, e.bounce_sub_type, e.bounce_status, e.bounce_reply_code,
                  e.bounce_diagnostic, e.bounce_provider, e.bounce_remote_mta, e.complaint_feedback_type, e.occurred_at
           FROM unnest($2::text[]) AS wanted(email)
           JOIN suppression_audit_trail e ON e.account_id = $1 AND e.email = wanted.email
           WHERE e.type IN ('bounce', 'complaint')
             AND e.received_at > COALESCE(
               (SELECT max(r.received_at) FROM suppression_audit_trail r
                WHERE r.account_id = $1 AND r.email = wanted.email AND r.type = 'removal'
                  AND ($3::text IS NULL OR NOT starts_with(r.event_id, 'reclassified-' || $3 || '-'))),
               '-infinity')
           ORDER BY e.email, e.occurred_at NULLS FIRST, e.received_at`,
    values: [accountId, emails, exceptRemovalsOfRun],
  });
  return rows;
}

/**
 * Deletes these entries, each with its removal record (reason `reclassified`) written by the same
 * statement, unless a bounce or complaint of the address was recorded after `readAt` (evidence the
 * run has not read). The delete fires the outbox trigger, which announces `suppression.removed`.
 * Meant for a transaction that checks, before it commits, that no writer still in flight brings
 * new evidence (see `eventWritersInFlight`). Returns the entries deleted.
 */
export async function deleteEntries(
  db: Queryable,
  accountId: string,
  runId: string,
  ids: readonly string[],
  readAt: Date,
): Promise<{ id: string; email: string }[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string; email: string }>({
    text: `WITH lifted AS (
             DELETE FROM suppressions s
             WHERE s.account_id = $1 AND s.id = ANY($3::uuid[]) AND s.origin = 'bounce'
               AND NOT EXISTS (
                 SELECT 1 FROM suppression_events e
                 WHERE e.account_id = s.account_id AND e.email = s.email
                   AND e.type IN ('bounce', 'complaint') AND e.received_at > $4)
             RETURNING s.account_id, s.id, s.email, s.scope
           ), audited AS (
             INSERT INTO suppression_events
               (account_id, event_id, type, email, scope, suppression_id, outcome, removal_reason, received_at,
                actor_type, actor_id)
             SELECT account_id, 'reclassified-' || $2 || '-' || id, 'removal', email, scope, id, 'removed', 'reclassified',
                    now(), 'system', $2
             FROM lifted
           )
           SELECT id, email FROM lifted`,
    values: [accountId, runId, ids, readAt],
  });
  return rows;
}

// The transactions of this database, other than the caller's, that have written to
// suppression_events and not ended: each holds the table's RowExclusiveLock until it does.
// (Databases copied from one template share their tables' oids: the database is named too.)
const WRITERS = `
  SELECT l.virtualtransaction FROM pg_locks l
  WHERE l.locktype = 'relation' AND l.granted AND l.mode = 'RowExclusiveLock'
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.relation = 'suppression_events'::regclass`;

/**
 * The transactions writing to `suppression_events` now, other than the caller's: a bounce or
 * complaint among their rows is not visible until they commit. Their ids, for `writersState`.
 */
export async function eventWritersInFlight(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ virtualtransaction: string }>({
    text: `SELECT DISTINCT w.virtualtransaction FROM (${WRITERS} AND l.pid <> pg_backend_pid()) AS w`,
  });
  return rows.map((row) => row.virtualtransaction);
}

/**
 * Whether any of these writers is still in flight, and whether any session waits for a lock the
 * caller holds (a writer that needs an entry the caller deleted and has not committed).
 */
export async function writersState(
  db: Queryable,
  writers: readonly string[],
): Promise<{ writing: boolean; blocking: boolean }> {
  const { rows } = await db.query<{ writing: boolean; blocking: boolean }>({
    text: `SELECT EXISTS (${WRITERS} AND l.virtualtransaction = ANY($1::text[])) AS writing,
                  EXISTS (SELECT 1 FROM pg_stat_activity a
                          WHERE a.wait_event_type = 'Lock' AND pg_backend_pid() = ANY(pg_blocking_pids(a.pid))) AS blocking`,
    values: [writers],
  });
  return rows[0] as { writing: boolean; blocking: boolean };
}

/** The public shape of a run, as `POST` and `GET /bounces/reclassifications` answer it. */
export function toReclassificationResource(run: Reclassification): ReclassificationResource {
  return {
    object: 'bounce_reclassification',
    id: run.id,
    status: run.status,
    dry_run: run.dry_run,
    classifier_version: run.classifier_version,
    entries_total: run.entries_total,
    entries_examined: run.entries_examined,
    entries_without_evidence: run.entries_without_evidence,
    records_examined: run.records_examined,
    lifted: run.lifted,
    lifted_by_category: run.lifted_by_category,
    records_by_category: run.records_by_category,
    error: run.error,
    created_at: run.created_at.toISOString(),
    started_at: run.started_at?.toISOString() ?? null,
    finished_at: run.finished_at?.toISOString() ?? null,
  };
}
