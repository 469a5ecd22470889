import { randomUUID } from 'node:crypto';
import type { BounceType, SuppressionEventInput } from '../../src/events/event-schema.js';

/**
 * What a mail system reports with each label, as real bounces read: a permanent one is an unknown
 * user (`invalid_address`), a transient one a full mailbox (`mailbox_unavailable`), and an
 * undetermined one carries no evidence (`unknown`).
 */
const EVIDENCE: Record<BounceType, { sub_type: string; status?: string; diagnostic?: string }> = {
  permanent: { sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
  transient: { sub_type: 'general', status: '4.2.2', diagnostic: 'smtp; 452 4.2.2 mailbox full' },
  undetermined: { sub_type: 'general' },
};

/** A bounce as an upstream mail system publishes it, with a fresh event id. */
export function bounceEvent(accountId: string, email: string, type: BounceType = 'permanent'): SuppressionEventInput {
  return {
    account_id: accountId,
    event_id: `evt-${randomUUID()}`,
    type: 'bounce',
    email,
    source_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    bounce: { type, ...EVIDENCE[type] },
  };
}

/** A complaint as an upstream mail system publishes it, with a fresh event id. */
export function complaintEvent(accountId: string, email: string): SuppressionEventInput {
  return {
    account_id: accountId,
    event_id: `evt-${randomUUID()}`,
    type: 'complaint',
    email,
    source_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    complaint: { feedback_type: 'abuse' },
  };
}
