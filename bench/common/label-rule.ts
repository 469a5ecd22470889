import type { BounceClassification, BounceEvidence } from '../../src/bounces/bounce-classifier.js';

/**
 * The rule this service had before it classified bounces, as a classifier: the provider's label
 * alone decides, permanent suppressing and anything else not. Its reason names the label, as the
 * service's own does for a bounce nothing else explains; its category is the one that rule gave.
 */
export function labelRule(evidence: BounceEvidence): BounceClassification {
  return evidence.type === 'permanent'
    ? { category: 'invalid_address', reason: 'label_permanent', rule: 'label:permanent' }
    : { category: 'unknown', reason: 'unclassified', rule: 'none' };
}
