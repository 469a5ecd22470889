import { classifyBounce, type BounceClassification, type BounceEvidence } from '../bounces/bounce-classifier.js';
import type { BounceAction, BounceActions } from '../domain/bounce-categories.js';
import { isComplaint } from '../domain/complaint-feedback.js';
import type { Origin } from '../domain/origins.js';
import type { SuppressionEvent } from './event-schema.js';

/** How a bounce's evidence becomes a classification: `classifyBounce` unless another is given. */
export type BounceClassifier = (evidence: BounceEvidence) => BounceClassification;

export interface EventDecision {
  /** What the event does: a complaint suppresses or is recorded; a bounce does what its category's action says. */
  action: BounceAction;
  /** The origin it suppresses with at once, or null. */
  origin: Origin | null;
  /** A bounce's classification; null for a complaint. */
  classification: BounceClassification | null;
}

/**
 * What an event does under the account's bounce actions: a complaint suppresses (origin
 * `complaint`) unless its feedback type says it is none; a bounce is classified from its evidence
 * and does what the account's action for its category says.
 */
export function decideEvent(
  event: SuppressionEvent,
  actions: Readonly<BounceActions>,
  classify: BounceClassifier = classifyBounce,
): EventDecision {
  if (event.type === 'complaint') {
    return isComplaint(event.complaint?.feedback_type)
      ? { action: 'suppress', origin: 'complaint', classification: null }
      : { action: 'record', origin: null, classification: null };
  }
  const classification = classify(event.bounce ?? {});
  const action = actions[classification.category];
  return { action, origin: action === 'suppress' ? 'bounce' : null, classification };
}
