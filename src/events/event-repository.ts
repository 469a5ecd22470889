import type { EventRecord } from './event-record.js';
import type { Queryable } from '../db/database.js';
import { COVERED_BY_ALLOWLIST } from '../allowlist/allowlist-repository.js';
import { legacyReceiptsBound, NOT_RECORDED_BEFORE_PARTITIONING } from './event-receipts.js';

export type EventOutcome =
  | 'allowlisted'
  | 'removed'
  | 'suppressed'
  | 'suppressed_soft_bounce_threshold'
  | 'already_suppressed'
  | 'not_suppressed'
  | 'duplicate'
  | 'unknown_account';

export interface RecordedEvent {
  outcome: EventOutcome;
  /** The entry that suppresses the address, when the event suppressed or found one. */
  suppression_id: string | null;
  /** For a bounce, the category it was classified in (set by recordEventBatch). */
  category?: string | null;
}

const RECORD_SQL = `
WITH input AS (
  -- The record's fields are the columns' names, so the JSON keys are read as they are.
  SELECT * FROM ROWS FROM (json_to_recordset($1::json) AS (
    account_id uuid, event_id text, type text, email text, source_id uuid, origin text, suppression_id uuid, scope text,
    actor_type text, actor_id text,
    occurred_at timestamptz, bounce_type text, bounce_sub_type text, bounce_status text, bounce_reply_code text,
    bounce_diagnostic text, bounce_provider text, bounce_remote_mta text, bounce_category text, bounce_reason text,
    bounce_rule text, classifier_version text, complaint_feedback_type text, provider_message_id text
  )) WITH ORDINALITY AS t
), receipted AS (
  -- An event is new when its receipt is written (src/events/event-receipts.ts); in key order, so
  -- that concurrent batches wait for each other instead of deadlocking.
  INSERT INTO event_receipts (account_id, event_id)
  SELECT input.account_id, input.event_id FROM input
  JOIN accounts ON accounts.id = input.account_id
  WHERE ${NOT_RECORDED_BEFORE_PARTITIONING('input.account_id', 'input.event_id', '$2')}
  ORDER BY input.account_id, input.event_id
  ON CONFLICT DO NOTHING
  RETURNING account_id, event_id
), fresh AS (
  -- An allowlisted address is recorded and never added (src/allowlist/).
  SELECT input.*, ${COVERED_BY_ALLOWLIST('input.account_id', 'input.email')} AS allowlisted FROM input
  JOIN receipted ON receipted.account_id = input.account_id AND receipted.event_id = input.event_id
), added AS (
  INSERT INTO suppressions (id, account_id, email, origin, source_id, scope)
  SELECT suppression_id, account_id, email, origin, source_id, scope FROM fresh
  WHERE origin IS NOT NULL AND NOT allowlisted
  ORDER BY account_id, email, scope, ordinality
  ON CONFLICT (account_id, email, scope) DO NOTHING
  RETURNING id, account_id, email, scope
), recorded AS (
  INSERT INTO suppression_events (account_id, event_id, type, email, scope, source_id, bounce_type, bounce_sub_type,
                                  bounce_status, bounce_reply_code, bounce_diagnostic, bounce_provider,
                                  bounce_remote_mta, bounce_category, bounce_reason, bounce_rule, classifier_version,
                                  complaint_feedback_type, provider_message_id, suppression_id, outcome, occurred_at,
                                  actor_type, actor_id)
  SELECT f.account_id, f.event_id, f.type, f.email, f.scope, f.source_id, f.bounce_type, f.bounce_sub_type,
         f.bounce_status, f.bounce_reply_code, f.bounce_diagnostic, f.bounce_provider, f.bounce_remote_mta,
         f.bounce_category, f.bounce_reason, f.bounce_rule, f.classifier_version,
         f.complaint_feedback_type, f.provider_message_id,
         CASE
           WHEN f.origin IS NULL OR f.allowlisted THEN NULL
           WHEN f.suppression_id IN (SELECT id FROM added) THEN f.suppression_id
           -- Looked up only for the few events whose address was already on the list: entered
           -- by an earlier event of this batch, or there before this statement.
           ELSE COALESCE(
             (SELECT added.id FROM added
              WHERE added.account_id = f.account_id AND added.email = f.email AND added.scope = f.scope),
             (SELECT existing.id FROM suppressions existing
              WHERE existing.account_id = f.account_id AND existing.email = f.email AND existing.scope = f.scope)
           )
         END,
         CASE
           WHEN f.origin IS NULL THEN 'not_suppressed'
           WHEN f.allowlisted THEN 'allowlisted'
           -- A hashed lookup: joining the two CTEs would be planned as a nested loop over both.
           WHEN f.suppression_id IN (SELECT id FROM added) THEN 'suppressed'
           ELSE 'already_suppressed'
         END,
         f.occurred_at, f.actor_type, f.actor_id
  FROM fresh f
  RETURNING account_id, event_id, outcome, suppression_id
)
SELECT
  CASE
    WHEN recorded.outcome IS NOT NULL THEN recorded.outcome
    WHEN NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.id = input.account_id) THEN 'unknown_account'
    -- Received before this statement, or by a batch that committed first (its receipt above).
    ELSE 'duplicate'
  END AS outcome,
  recorded.suppression_id
FROM input
LEFT JOIN recorded ON recorded.account_id = input.account_id AND recorded.event_id = input.event_id
ORDER BY input.ordinality`;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A lower bound on the `received_at` of records this process wrote just now: a day back, for the
 * server's clock against ours. A parameter rather than `now() - interval`, so that only the latest
 * month partitions are planned.
 */
export const justRecordedSince = (): Date => new Date(Date.now() - DAY_MS);

/**
 * Records events and applies the suppressing ones, in one statement (so one transaction). An
 * event already recorded for its account changes nothing and comes back as `duplicate` (see
 * src/events/duplicate-events.ts); an address already on the list keeps its first entry. Events
 * must be distinct by (account, event id).
 */
export async function recordEvents(db: Queryable, records: readonly EventRecord[]): Promise<RecordedEvent[]> {
  const { rows } = await db.query<RecordedEvent>({
    // Unnamed on purpose: a saved generic plan, made while the tables were small, would keep
    // scanning them whole as they grow. Planning once per batch is cheap.
    text: RECORD_SQL,
    // One JSON document instead of an array per column: serialised natively, not value by value.
    values: [JSON.stringify(records), await legacyReceiptsBound(db)],
  });
  await fillConcurrentEntries(db, records, rows);
  return rows;
}

/**
 * An entry created by a concurrent batch after this statement's snapshot blocks our insert but is
 * not visible to it. Once that batch has committed, the entry is there to be linked.
 */
async function fillConcurrentEntries(
  db: Queryable,
  records: readonly EventRecord[],
  results: RecordedEvent[],
): Promise<void> {
  const missing = records.filter((_, index) => {
    const result = results[index] as RecordedEvent;
    return result.outcome === 'already_suppressed' && result.suppression_id === null;
  });
  if (missing.length === 0) return;
  const { rows } = await db.query<{ account_id: string; event_id: string; id: string }>({
    // By address, the partitions' index, and among the records written just now.
    text: `UPDATE suppression_events e SET suppression_id = s.id
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS wanted(account_id, event_id, email), suppressions s
           WHERE e.account_id = wanted.account_id AND e.email = wanted.email AND e.event_id = wanted.event_id
             AND e.received_at > $4::timestamptz
             AND s.account_id = e.account_id AND s.email = e.email AND s.scope = e.scope
           RETURNING e.account_id, e.event_id, s.id`,
    values: [
      missing.map((record) => record.account_id),
      missing.map((record) => record.event_id),
      missing.map((record) => record.email),
      justRecordedSince(),
    ],
  });
  const idOf = new Map(rows.map((row) => [`${row.account_id}\n${row.event_id}`, row.id]));
  records.forEach((record, index) => {
    const result = results[index] as RecordedEvent;
    if (result.outcome === 'already_suppressed' && result.suppression_id === null) {
      result.suppression_id = idOf.get(`${record.account_id}\n${record.event_id}`) ?? null;
    }
  });
}
