import type { Origin } from '../domain/suppression.js';
import type { Queryable } from './database.js';

/** One event ready to be written: validated, classified, with the ids it will use if it is new. */
export interface EventRecord {
  id: string;
  accountId: string;
  eventId: string;
  type: 'bounce' | 'complaint';
  email: string;
  sourceId: string;
  /** The origin it suppresses with, or null when it is only recorded. */
  origin: Origin | null;
  /** The id of the suppression, when this event creates it. */
  suppressionId: string;
  occurredAt: string;
  bounceType: string | null;
  bounceSubType: string | null;
  bounceStatus: string | null;
  bounceDiagnostic: string | null;
  feedbackType: string | null;
}

export type EventOutcome = 'suppressed' | 'already_suppressed' | 'not_suppressed' | 'duplicate' | 'unknown_account';

export interface RecordedEvent {
  outcome: EventOutcome;
  /** The entry that suppresses the address, when the event suppressed or found one. */
  suppressionId: string | null;
}

const RECORD_SQL = `
WITH input AS (
  SELECT * FROM unnest(
    $1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::uuid[],
    $9::timestamptz[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[]
  ) WITH ORDINALITY AS t(id, account_id, event_id, type, email, source_id, origin, suppression_id,
                         occurred_at, bounce_type, bounce_sub_type, bounce_status, bounce_diagnostic, feedback_type, ord)
), fresh AS (
  SELECT input.* FROM input
  JOIN accounts ON accounts.id = input.account_id
  WHERE NOT EXISTS (
    SELECT 1 FROM suppression_events e WHERE e.account_id = input.account_id AND e.event_id = input.event_id
  )
), added AS (
  INSERT INTO suppressions (id, account_id, email, origin, source_id)
  SELECT suppression_id, account_id, email, origin, source_id FROM fresh
  WHERE origin IS NOT NULL
  ORDER BY account_id, email, ord
  ON CONFLICT (account_id, email) DO NOTHING
  RETURNING id
), recorded AS (
  INSERT INTO suppression_events (id, account_id, event_id, type, email, source_id, bounce_type, bounce_sub_type,
                                  bounce_status, bounce_diagnostic, complaint_feedback_type, suppression_id, outcome, occurred_at)
  SELECT f.id, f.account_id, f.event_id, f.type, f.email, f.source_id, f.bounce_type, f.bounce_sub_type,
         f.bounce_status, f.bounce_diagnostic, f.feedback_type,
         CASE WHEN f.origin IS NOT NULL THEN COALESCE(added.id, existing.id) END,
         CASE WHEN f.origin IS NULL THEN 'not_suppressed' WHEN added.id IS NOT NULL THEN 'suppressed' ELSE 'already_suppressed' END,
         f.occurred_at
  FROM fresh f
  LEFT JOIN added ON added.id = f.suppression_id
  LEFT JOIN suppressions existing ON existing.account_id = f.account_id AND existing.email = f.email
  ORDER BY f.account_id, f.event_id
  ON CONFLICT (account_id, event_id) DO NOTHING
  RETURNING account_id, event_id, outcome, suppression_id
)
SELECT
  CASE
    WHEN recorded.outcome IS NOT NULL THEN recorded.outcome
    WHEN NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.id = input.account_id) THEN 'unknown_account'
    ELSE 'duplicate'
  END AS outcome,
  recorded.suppression_id
FROM input
LEFT JOIN recorded ON recorded.account_id = input.account_id AND recorded.event_id = input.event_id
ORDER BY input.ord`;

/**
 * Records events and applies the suppressing ones, in one statement (so one transaction). An
 * event already recorded for its account changes nothing and comes back as `duplicate`; an
 * address already on the list keeps its first entry. Events must be distinct by (account, event id).
 */
export async function recordEvents(db: Queryable, records: readonly EventRecord[]): Promise<RecordedEvent[]> {
  const column = <K extends keyof EventRecord>(key: K): EventRecord[K][] => records.map((record) => record[key]);
  const { rows } = await db.query<{ outcome: EventOutcome; suppression_id: string | null }>({
    name: 'events-record',
    text: RECORD_SQL,
    values: [
      column('id'),
      column('accountId'),
      column('eventId'),
      column('type'),
      column('email'),
      column('sourceId'),
      column('origin'),
      column('suppressionId'),
      column('occurredAt'),
      column('bounceType'),
      column('bounceSubType'),
      column('bounceStatus'),
      column('bounceDiagnostic'),
      column('feedbackType'),
    ],
  });
  return rows.map((row) => ({ outcome: row.outcome, suppressionId: row.suppression_id }));
}

export interface StoredEvent {
  eventId: string;
  type: string;
  email: string;
  outcome: string;
  suppressionId: string | null;
  apiKeyId: string | null;
}

/** The audit trail of one address in one account, oldest first. */
export async function eventsForEmail(db: Queryable, accountId: string, email: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<{
    event_id: string;
    type: string;
    email: string;
    outcome: string;
    suppression_id: string | null;
    api_key_id: string | null;
  }>({
    text: `SELECT event_id, type, email, outcome, suppression_id, api_key_id FROM suppression_events
           WHERE account_id = $1 AND email = $2 ORDER BY received_at, id`,
    values: [accountId, email],
  });
  return rows.map((row) => ({
    eventId: row.event_id,
    type: row.type,
    email: row.email,
    outcome: row.outcome,
    suppressionId: row.suppression_id,
    apiKeyId: row.api_key_id,
  }));
}
