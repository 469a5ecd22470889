/**
 * The database's floor for the ingest: a worker on the same queue, with the same options, batching
 * and pool, that writes each job's rows (its receipt, its audit record and, when it suppresses a new
 * address, the entry) by bare `COPY`s in one transaction a batch, on a database of its own. The
 * rows are the ones the event worker writes, worked out before the round (validation, the
 * classifier, the policy and the check for an entry already there are not timed), so what is left is
 * what PostgreSQL must do to store them. The event worker's rate over this one says how much of
 * the queue and the database together it keeps.
 */
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { WORKER_TUNING } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import type { EventRecord } from '../../src/events/event-record.js';
import { KEEP_COMPLETED, KEEP_FAILED } from '../../src/queues.js';
import { WriteCoalescer } from '../../src/write-coalescer.js';
import { copyIn } from '../common/copy-in.js';

const AUDIT_COLUMNS = [
  'account_id',
  'event_id',
  'type',
  'email',
  'scope',
  'source_id',
  'bounce_type',
  'bounce_sub_type',
  'bounce_status',
  'bounce_reply_code',
  'bounce_diagnostic',
  'bounce_provider',
  'bounce_remote_mta',
  'bounce_category',
  'bounce_reason',
  'bounce_rule',
  'classifier_version',
  'complaint_feedback_type',
  'provider_message_id',
  'suppression_id',
  'outcome',
  'occurred_at',
  'actor_type',
  'actor_id',
] as const;

/** One line of `COPY ... (FORMAT text)`. */
function copyLine(values: readonly (string | null | undefined)[]): string {
  const fields = values.map((value) =>
    value === null || value === undefined
      ? '\\N'
      : String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r'),
  );
  return `${fields.join('\t')}\n`;
}

/** The lines as one piece; a batch that has none (no new entry, say) sends no statement. */
async function copyLines(client: pg.PoolClient, statement: string, lines: string[]): Promise<void> {
  if (lines.length > 0) await copyIn(client, statement, [lines.join('')]);
}

export type PlannedRows = Map<string, { record: EventRecord; entry: boolean }>;

/**
 * What each event leaves, by its event id: the record as the event worker would write it, and
 * whether it makes a new entry (the first suppressing event of its address and scope).
 */
export function plannedRows(records: readonly EventRecord[]): PlannedRows {
  const entries = new Set<string>();
  return new Map(
    records.map((record) => {
      const key = `${record.account_id}\n${record.email}\n${record.scope}`;
      const entry = record.origin !== null && !entries.has(key);
      if (entry) entries.add(key);
      return [`${record.account_id}\n${record.event_id}`, { record, entry }];
    }),
  );
}

async function writeRows(db: Database, rows: { record: EventRecord; entry: boolean }[]): Promise<void> {
  await db.withTransaction(async (client) => {
    await copyLines(
      client,
      'COPY event_receipts (account_id, event_id) FROM STDIN',
      rows.map(({ record }) => copyLine([record.account_id, record.event_id])),
    );
    await copyLines(
      client,
      'COPY suppressions (id, account_id, email, origin, source_id, scope) FROM STDIN',
      rows
        .filter(({ entry }) => entry)
        .map(({ record }) =>
          copyLine([
            record.suppression_id,
            record.account_id,
            record.email,
            record.origin,
            record.source_id,
            record.scope,
          ]),
        ),
    );
    await copyLines(
      client,
      `COPY suppression_events (${AUDIT_COLUMNS.join(', ')}) FROM STDIN`,
      rows.map(({ record }) =>
        copyLine(
          AUDIT_COLUMNS.map((column) =>
            column === 'outcome' ? (record.origin === null ? 'not_suppressed' : 'suppressed') : record[column],
          ),
        ),
      ),
    );
  });
}

/** A BullMQ worker that writes each job's planned rows by COPY, coalesced as the event worker coalesces. */
export function startCopyFloorWorker(
  options: { connection: Redis; prefix: string; concurrency: number; queue: string },
  db: Database,
  planned: PlannedRows,
): { worker: Worker; close(): Promise<void> } {
  const tuning = WORKER_TUNING.events;
  const coalescer = new WriteCoalescer<{ record: EventRecord; entry: boolean }, void>(
    async (rows) => {
      await writeRows(db, rows);
      return rows.map(() => undefined);
    },
    { maxBatch: tuning.batchSize, maxDelayMs: tuning.batchDelayMs, maxInFlight: tuning.batchesInFlight },
  );
  const worker = new Worker(
    options.queue,
    async (job: Job<{ account_id: string; event_id: string }>) => {
      const rows = planned.get(`${job.data.account_id}\n${job.data.event_id}`);
      if (!rows) throw new Error(`no planned rows for event ${job.data.event_id}`);
      await coalescer.submit(rows);
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  );
  return {
    worker,
    async close() {
      await worker.close();
      await coalescer.drain();
    },
  };
}
