import type { BounceAction, BounceActions } from '../domain/bounce-categories.js';
import { CLASSIFIER_VERSION } from '../bounces/bounce-classifier.js';
import type { Origin } from '../domain/origins.js';
import { newId } from '../domain/ids.js';
import { storedScope } from '../domain/scope.js';
import type { ComplaintScope } from '../domain/scope.js';
import { decideEvent, type BounceClassifier } from './event-decision.js';
import type { EventType, SuppressionEvent } from './event-schema.js';
import type { BounceDecisionColumns, BounceEvidenceColumns } from '../domain/event-columns.js';

/**
 * One event ready to be written: validated, classified, decided, with the id its suppression will
 * get if it is new. Fields are named after the columns they are written to (`suppression_events`,
 * and `suppressions` for `origin`), so the statement reads them by name; `action` is not stored.
 */
export interface EventRecord extends BounceEvidenceColumns, BounceDecisionColumns {
  account_id: string;
  event_id: string;
  type: EventType;
  email: string;
  source_id: string;
  /** What the event does under its account's policy: `count` is a soft bounce toward the threshold. */
  action: BounceAction;
  /** The origin it suppresses with, or null when it is only recorded. */
  origin: Origin | null;
  /** For a suppressing event: the id its suppression gets if it is the one that creates it. */
  suppression_id: string | null;
  /** The scope of the entry it makes or finds, as stored ('' for the whole account). */
  scope: string;
  /** Who reported it: a feed (by its id), or a producer on the events queue. */
  actor_type: 'feed' | 'queue';
  actor_id: string | null;
  occurred_at: string;
  complaint_feedback_type: string | null;
  provider_message_id: string | null;
}

/**
 * The scope an event's entry is for: a bounce's is the whole account (a dead address is dead for
 * every stream); a complaint's is its message's scope, unless the account puts complaints on the
 * whole account (`complaint_scope: global`).
 */
function entryScope(event: SuppressionEvent, complaintScope: ComplaintScope): string {
  if (event.type !== 'complaint' || complaintScope === 'global') return '';
  return storedScope(event.scope ?? null);
}

export function toEventRecord(
  event: SuppressionEvent,
  policy: { actions: Readonly<BounceActions>; complaintScope: ComplaintScope },
  classify?: BounceClassifier,
): EventRecord {
  const { action, origin, classification } = decideEvent(event, policy.actions, classify);
  return {
    account_id: event.account_id,
    event_id: event.event_id,
    type: event.type,
    email: event.email,
    source_id: event.source_id,
    action,
    origin,
    suppression_id: origin === null ? null : newId(),
    scope: entryScope(event, policy.complaintScope),
    actor_type: event.feed_id === undefined ? 'queue' : 'feed',
    actor_id: event.feed_id ?? null,
    occurred_at: event.occurred_at,
    bounce_type: event.bounce?.type ?? null,
    bounce_sub_type: event.bounce?.sub_type ?? null,
    bounce_status: event.bounce?.status ?? null,
    bounce_reply_code: event.bounce?.reply_code ?? null,
    bounce_diagnostic: event.bounce?.diagnostic ?? null,
    bounce_provider: event.bounce?.provider ?? null,
    bounce_remote_mta: event.bounce?.remote_mta ?? null,
    bounce_category: classification?.category ?? null,
    bounce_reason: classification?.reason ?? null,
    bounce_rule: classification?.rule ?? null,
    classifier_version: classification ? CLASSIFIER_VERSION : null,
    complaint_feedback_type: event.complaint?.feedback_type ?? null,
    provider_message_id: event.provider_message_id ?? null,
  };
}
