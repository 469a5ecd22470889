import type { Actor, ActorType } from '../domain/actor.js';
import { PROVIDERS } from '../feeds/providers/index.js';
import type { AuditOutcome, AuditRecord } from './audit-record.js';
import type { Queryable } from '../db/database.js';
import { scopeOfStored } from '../domain/scope.js';
import { keysetPage, UnknownCursorError, type KeysetPlan, type KeysetQuery } from '../db/keyset-page.js';
import type { BounceDecisionColumns, BounceEvidenceColumns } from '../domain/event-columns.js';

interface AuditRow extends BounceEvidenceColumns, BounceDecisionColumns {
  event_id: string;
  type: AuditRecord['type'];
  outcome: AuditOutcome;
  email: string;
  scope: string;
  source_id: string | null;
  complaint_feedback_type: string | null;
  provider_message_id: string | null;
  api_key_id: string | null;
  removal_reason: 'expired' | 'reclassified' | 'reactivated' | null;
  reason: string | null;
  actor_type: ActorType | null;
  actor_id: string | null;
  suppression_id: string | null;
  occurred_at: Date | null;
  received_at: Date;
}

const AUDIT_COLUMNS = `event_id, type, outcome, email, scope, source_id, bounce_type, bounce_sub_type, bounce_status,
  bounce_reply_code, bounce_diagnostic, bounce_provider, bounce_remote_mta, bounce_category, bounce_reason, bounce_rule,
  classifier_version, complaint_feedback_type, provider_message_id, api_key_id, removal_reason, reason, actor_type, actor_id, suppression_id,
  occurred_at, received_at`;

/** Feed event ids start with their provider's name (src/feeds/event-ids.ts). */
const FEED_EVENT_ID = new RegExp(`^(${PROVIDERS.join('|')}):`);

/** What a record written before actors were kept says of its maker. */
interface LegacyRecord {
  type: string;
  eventId: string;
  apiKeyId: string | null;
  removalReason: string | null;
}

/**
 * The actor of a record that was stored with none: its key when it names one, the service for an
 * expiry or a reclassification, a feed for an event whose id is a feed's, and the queue otherwise
 * (an event from a producer, or a removal by a batch job).
 */
function legacyActor(record: LegacyRecord): Actor {
  if (record.apiKeyId !== null) return { type: 'api_key', id: record.apiKeyId };
  if (record.removalReason === 'expired' || record.removalReason === 'reclassified')
    return { type: 'system', id: null };
  if (record.type !== 'removal' && FEED_EVENT_ID.test(record.eventId)) return { type: 'feed', id: null };
  return { type: 'queue', id: null };
}

function fromRow(row: AuditRow): AuditRecord {
  return {
    eventId: row.event_id,
    type: row.type,
    outcome: row.outcome,
    email: row.email,
    scope: scopeOfStored(row.scope),
    sourceId: row.source_id,
    bounce:
      row.type === 'bounce'
        ? {
            type: row.bounce_type,
            subType: row.bounce_sub_type,
            status: row.bounce_status,
            replyCode: row.bounce_reply_code,
            diagnostic: row.bounce_diagnostic,
            provider: row.bounce_provider,
            remoteMta: row.bounce_remote_mta,
            classification:
              row.bounce_category === null
                ? null
                : {
                    category: row.bounce_category,
                    reason: row.bounce_reason ?? '',
                    rule: row.bounce_rule ?? '',
                    version: row.classifier_version ?? '',
                  },
          }
        : null,
    complaint: row.type === 'complaint' ? { feedbackType: row.complaint_feedback_type } : null,
    providerMessageId: row.provider_message_id,
    removedByKeyId: row.api_key_id,
    removalReason: row.removal_reason,
    reason: row.reason,
    actor:
      row.actor_type === null
        ? legacyActor({
            type: row.type,
            eventId: row.event_id,
            apiKeyId: row.api_key_id,
            removalReason: row.removal_reason,
          })
        : { type: row.actor_type, id: row.actor_id },
    suppressionId: row.suppression_id,
    occurredAt: row.occurred_at,
    receivedAt: row.received_at,
  };
}

export type HistoryTarget = { id: string } | { email: string };

/**
 * The address whose history is asked for, or null when the account knows nothing of it. An id is
 * resolved through its entry, or, once the entry is removed, through a record that names it; an
 * address needs an entry or a record. The id's fallback reads the account's records without an
 * index of their own, but runs only for the id of a removed entry.
 */
export async function historyAddress(db: Queryable, accountId: string, target: HistoryTarget): Promise<string | null> {
  if ('id' in target) {
    const { rows } = await db.query<{ email: string }>({
      name: 'history-address-by-id',
      // LIMIT 1 over the UNION ALL stops at the entry when there is one: the records are read only without it.
      text: `(SELECT email FROM suppressions WHERE account_id = $1 AND id = $2)
             UNION ALL
             (SELECT email FROM suppression_audit_trail WHERE account_id = $1 AND suppression_id = $2 LIMIT 1)
             LIMIT 1`,
      values: [accountId, target.id],
    });
    return rows[0]?.email ?? null;
  }
  const { rows } = await db.query<{ known: boolean }>({
    name: 'history-address-by-email',
    text: `SELECT EXISTS (SELECT 1 FROM suppressions WHERE account_id = $1 AND email = $2)
               OR EXISTS (SELECT 1 FROM suppression_audit_trail WHERE account_id = $1 AND email = $2) AS known`,
    values: [accountId, target.email],
  });
  return rows[0]?.known ? target.email : null;
}

/** Keyset pages of an address's records, newest first by (received_at, event_id). A cursor is an event id of the same history. */
export async function listHistory(
  db: Queryable,
  accountId: string,
  email: string,
  query: KeysetQuery<string>,
): Promise<{ records: AuditRecord[]; hasMore: boolean }> {
  const values: unknown[] = [accountId, email];
  const plan = await historyPlan(db, query, values);
  const { rows } = await db.query<AuditRow>({
    name: `history-${plan.direction}-${plan.condition === '' ? 'first' : 'cursor'}`,
    text: `SELECT ${AUDIT_COLUMNS} FROM suppression_audit_trail
           WHERE account_id = $1 AND email = $2 ${plan.condition}
           ORDER BY received_at ${plan.direction}, event_id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return { records: page.rows.map(fromRow), hasMore: page.hasMore };
}

/** `keysetPlan` over the pair (received_at, event_id), whose cursor is a row of the same history. */
async function historyPlan(db: Queryable, query: KeysetQuery<string>, values: unknown[]): Promise<KeysetPlan> {
  let condition = '';
  let direction: KeysetPlan['direction'] = 'DESC';
  const cursor = query.after ?? query.before;
  if (cursor !== undefined) {
    const parameter = query.after !== undefined ? 'after' : 'before';
    // The cursor's place, read once: its time as text keeps the microseconds a JavaScript Date would cut.
    const { rows } = await db.query<{ received_at: string }>({
      name: 'history-cursor',
      text: 'SELECT received_at::text AS received_at FROM suppression_audit_trail WHERE account_id = $1 AND email = $2 AND event_id = $3',
      values: [values[0], values[1], cursor],
    });
    if (!rows[0]) throw new UnknownCursorError(parameter);
    values.push(rows[0].received_at, cursor);
    const operator = parameter === 'after' ? '<' : '>';
    condition = `AND (received_at, event_id) ${operator} ($${values.length - 1}::timestamptz, $${values.length})`;
    if (parameter === 'before') direction = 'ASC';
  }
  values.push(query.limit + 1);
  return { condition, direction, limit: `$${values.length}` };
}
