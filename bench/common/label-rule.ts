import type { BounceClassification, BounceEvidence } from '../../src/bounces/bounce-classifier.js';

/**
 * The rule this service had before it classified bounces, as a classifier: the provider's label
 * alone decides, permanent suppressing and anything else not.
 */
export function labelRule(evidence: BounceEvidence): BounceClassification {
  return evidence.type === 'permanent'
    ? { category: 'invalid_address', reason: 'label_permanent', rule: 'label:permanent' }
    : { category: 'unknown', reason: 'unclassified', rule: 'none' };
}
