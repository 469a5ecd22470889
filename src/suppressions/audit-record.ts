/** What an audit record says happened to the address. */
export type AuditOutcome =
  'suppressed' | 'already_suppressed' | 'not_suppressed' | 'removed' | 'suppressed_soft_bounce_threshold';

/** What the classifier decided of a bounce when it was recorded. */
export interface RecordedClassification {
  category: string;
  reason: string;
  rule: string;
  version: string;
}

/** One record of an address's audit trail (`suppression_events`): a bounce, a complaint or a removal. */
export interface AuditRecord {
  eventId: string;
  type: 'bounce' | 'complaint' | 'removal';
  outcome: AuditOutcome;
  email: string;
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
  removalReason: 'expired' | 'reclassified' | null;
  suppressionId: string | null;
  occurredAt: Date | null;
  receivedAt: Date;
}

/** The public shape of a record, as `GET /suppressions/{suppression}/events` lists it. */
export function toAuditRecordResource(record: AuditRecord) {
  return {
    object: 'suppression_event' as const,
    event_id: record.eventId,
    type: record.type,
    outcome: record.outcome,
    email: record.email,
    source_id: record.sourceId,
    bounce: record.bounce && {
      type: record.bounce.type,
      sub_type: record.bounce.subType,
      status: record.bounce.status,
      reply_code: record.bounce.replyCode,
      diagnostic: record.bounce.diagnostic,
      provider: record.bounce.provider,
      remote_mta: record.bounce.remoteMta,
      classification: record.bounce.classification,
    },
    complaint: record.complaint && { feedback_type: record.complaint.feedbackType },
    provider_message_id: record.providerMessageId,
    removed_by_key_id: record.removedByKeyId,
    removal_reason: record.removalReason,
    suppression_id: record.suppressionId,
    occurred_at: record.occurredAt?.toISOString() ?? null,
    received_at: record.receivedAt.toISOString(),
  };
}
