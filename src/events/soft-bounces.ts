import { SOFT_BOUNCE_ACTION } from '../policy/soft-bounce-rule.js';
import type { EventRecord } from './event-record.js';
import type { BounceType } from './event-schema.js';

/**
 * The provider labels that made a bounce soft before bounces were classified. A record from then has
 * no category, and counts by its label, as it did then.
 */
export const UNCLASSIFIED_SOFT_BOUNCE_TYPES = ['transient', 'undetermined'] as const satisfies readonly BounceType[];

/** A bounce whose category's action is `count`: it suppresses only under a threshold. */
export function isSoftBounce(record: Pick<EventRecord, 'type' | 'action'>): boolean {
  return record.type === 'bounce' && record.action === SOFT_BOUNCE_ACTION;
}
