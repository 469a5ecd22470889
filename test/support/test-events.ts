import { randomUUID } from 'node:crypto';
import type { BounceType, SuppressionEventInput } from '../../src/events/event-schema.js';

/** A bounce as an upstream mail system publishes it, with a fresh event id. */
export function bounceEvent(accountId: string, email: string, type: BounceType = 'permanent'): SuppressionEventInput {
  return {
    account_id: accountId,
    event_id: `evt-${randomUUID()}`,
    type: 'bounce',
    email,
    source_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    bounce: { type, sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
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
