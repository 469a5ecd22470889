import type { Queryable } from '../db/database.js';
import { legacyReceiptsBound, NOT_RECORDED_BEFORE_PARTITIONING } from './event-receipts.js';
import { storedScope } from '../domain/scope.js';
import type { RecordedEvent } from './event-repository.js';
import type { SuppressionEvent } from './event-schema.js';

// One statement per reactivation: the address's entries of its scope and of the whole account that
// a bounce or complaint put there, and whose every bounce and complaint record came from the
// provider's feed (event ids `<provider>:...`), are deleted, each with its removal record. The first
// (the whole account's, '' sorting first) takes the event's own id, so that a repeat of the event is
// a duplicate, and a scope's takes the id and its scope; when nothing is lifted, the event is
// recorded as `not_suppressed`.
const REACTIVATE_SQL = `
WITH input AS (
  SELECT $1::uuid AS account_id, $2::text AS event_id, $3::text AS email, $4::text AS scope, $5::text AS provider,
         $6::uuid AS source_id, $7::text AS provider_message_id, $8::timestamptz AS occurred_at,
         $9::text AS actor_type, $10::text AS actor_id
), fresh AS (
  -- New when its receipt is written (src/events/event-receipts.ts).
  INSERT INTO event_receipts (account_id, event_id)
  SELECT $1, $2 FROM accounts WHERE id = $1 AND ${NOT_RECORDED_BEFORE_PARTITIONING('$1', '$2', '$11')}
  ON CONFLICT DO NOTHING
  RETURNING 1
), lifted AS (
  DELETE FROM suppressions s
  WHERE EXISTS (SELECT 1 FROM fresh)
    AND s.account_id = $1 AND s.email = $3 AND s.scope IN ('', $4) AND s.origin IN ('bounce', 'complaint')
    AND EXISTS (
      SELECT 1 FROM suppression_audit_trail e
      WHERE e.account_id = s.account_id AND e.email = s.email AND e.suppression_id = s.id
        AND e.type IN ('bounce', 'complaint') AND starts_with(e.event_id, $5::text || ':'))
    AND NOT EXISTS (
      SELECT 1 FROM suppression_audit_trail e
      WHERE e.account_id = s.account_id AND e.email = s.email AND e.suppression_id = s.id
        AND e.type IN ('bounce', 'complaint') AND NOT starts_with(e.event_id, $5::text || ':'))
  RETURNING s.id, s.email, s.scope
), numbered AS (
  SELECT id, email, scope, row_number() OVER (ORDER BY scope) AS n FROM lifted
), recorded AS (
  INSERT INTO suppression_events
    (account_id, event_id, type, email, scope, source_id, suppression_id, outcome, removal_reason,
     provider_message_id, occurred_at, actor_type, actor_id)
  SELECT i.account_id, CASE WHEN n = 1 THEN i.event_id ELSE i.event_id || ':' || numbered.scope END,
         'removal', numbered.email, numbered.scope, i.source_id, numbered.id, 'removed', 'reactivated',
         i.provider_message_id, i.occurred_at, i.actor_type, i.actor_id
  FROM numbered, input i
  UNION ALL
  SELECT i.account_id, i.event_id, 'removal', i.email, i.scope, i.source_id, NULL, 'not_suppressed', 'reactivated',
         i.provider_message_id, i.occurred_at, i.actor_type, i.actor_id
  FROM input i WHERE EXISTS (SELECT 1 FROM fresh) AND NOT EXISTS (SELECT 1 FROM lifted)
  RETURNING outcome, suppression_id, event_id
)
SELECT
  CASE
    WHEN NOT EXISTS (SELECT 1 FROM accounts WHERE id = $1) THEN 'unknown_account'
    WHEN NOT EXISTS (SELECT 1 FROM fresh) THEN 'duplicate'
    ELSE (SELECT outcome FROM recorded WHERE event_id = $2)
  END AS outcome,
  (SELECT suppression_id FROM recorded WHERE event_id = $2) AS suppression_id`;

/**
 * A provider withdrawing its verdict on an address (Postmark's reactivation): lifts what only that
 * provider's evidence put on the list, in the event's scope and for the whole account, and nothing
 * that other evidence, a person or an import put there. The delete fires the outbox trigger, which
 * announces `suppression.removed`. Outcome `removed` (the first entry lifted), `not_suppressed`
 * (nothing to lift), `duplicate` or `unknown_account`.
 */
export async function applyReactivation(db: Queryable, event: SuppressionEvent): Promise<RecordedEvent> {
  const { rows } = await db.query<RecordedEvent>({
    text: REACTIVATE_SQL,
    values: [
      event.account_id,
      event.event_id,
      event.email,
      storedScope(event.scope ?? null),
      event.reactivation?.provider,
      event.source_id,
      event.provider_message_id ?? null,
      event.occurred_at,
      event.feed_id === undefined ? 'queue' : 'feed',
      event.feed_id ?? null,
      await legacyReceiptsBound(db),
    ],
  });
  return rows[0] as RecordedEvent;
}
