import type { Actor } from '../domain/actor.js';
import type { Scope } from '../domain/scope.js';
import type {
  AuditOutcome,
  AuditRecordResource,
  RecordedClassification as ClassificationResource,
} from '../contract/audit-record.js';

export type { AuditOutcome };

/** What the classifier decided of a bounce when it was recorded, as its columns hold it. */
export interface RecordedClassification {
  category: string;
  reason: string;
  rule: string;
  version: string;
}

/** One record of an address's audit trail (`suppression_events`): a bounce, a complaint or a removal. */
export interface AuditRecord {
  eventId: string;
  type: 'bounce' | 'complaint' | 'removal' | 'addition';
  outcome: AuditOutcome;
  email: string;
  /** The scope of the entry it made, found or removed (null: the whole account). */
  scope: Scope;
  sourceId: string | null;
  bounce: {
    type: string | null;
    subType: string | null;
    status: string | null;
    replyCode: string | null;
    diagnostic: string | null;
    provider: string | null;
    remoteMta: string | null;
    /** Null for a record written before bounces were classified. */
    classification: RecordedClassification | null;
  } | null;
  complaint: { feedbackType: string | null } | null;
  providerMessageId: string | null;
  /** For a removal through the API: the key that made it. */
  removedByKeyId: string | null;
  removalReason: 'expired' | 'reclassified' | 'reactivated' | null;
  /** For a removal: the words its caller gave, if any. */
  reason: string | null;
  actor: Actor;
  suppressionId: string | null;
  occurredAt: Date | null;
  receivedAt: Date;
}

/** The public shape of a record, as `GET /suppressions/{suppression}/events` lists it. */
export function toAuditRecordResource(record: AuditRecord): AuditRecordResource {
  return {
    object: 'suppression_event',
    event_id: record.eventId,
    type: record.type,
    outcome: record.outcome,
    email: record.email,
    scope: record.scope,
    source_id: record.sourceId,
    bounce: record.bounce && {
      type: record.bounce.type,
      sub_type: record.bounce.subType,
      status: record.bounce.status,
      reply_code: record.bounce.replyCode,
      diagnostic: record.bounce.diagnostic,
      provider: record.bounce.provider,
      remote_mta: record.bounce.remoteMta,
      // The columns are written only from classifyBounce's decision, whose category and reason are
      // the contract's.
      classification: record.bounce.classification as ClassificationResource | null,
    },
    complaint: record.complaint && { feedback_type: record.complaint.feedbackType },
    provider_message_id: record.providerMessageId,
    removed_by_key_id: record.removedByKeyId,
    removal_reason: record.removalReason,
    reason: record.reason,
    actor: record.actor,
    suppression_id: record.suppressionId,
    occurred_at: record.occurredAt?.toISOString() ?? null,
    received_at: record.receivedAt.toISOString(),
  };
}
