import type { Origin } from '../domain/suppression.js';
import type { SuppressionEvent } from './event-schema.js';

/**
 * The origin an event suppresses with, or null when it is only recorded: a complaint and a
 * permanent bounce suppress; a transient or undetermined bounce may well deliver on a later try.
 */
export function suppressingOrigin(event: SuppressionEvent): Origin | null {
  if (event.type === 'complaint') return 'complaint';
  return event.bounce?.type === 'permanent' ? 'bounce' : null;
}
