/**
 * A bounce's evidence as `suppression_events` stores it, one field per column: what the
 * classifier reads, when an event is recorded and again when its records are reclassified.
 */
export interface BounceEvidenceColumns {
  bounce_type: string | null;
  bounce_sub_type: string | null;
  bounce_status: string | null;
  bounce_reply_code: string | null;
  bounce_diagnostic: string | null;
  bounce_provider: string | null;
  bounce_remote_mta: string | null;
}

/** The classifier's decision on a bounce, stored beside its evidence. */
export interface BounceDecisionColumns {
  bounce_category: string | null;
  bounce_reason: string | null;
  bounce_rule: string | null;
  classifier_version: string | null;
}
