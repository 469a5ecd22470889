import type { BounceReason } from '../../domain/bounce-categories.js';

/**
 * What the words of a diagnostic mean, as phrases (see ../phrase-matcher.ts for their syntax). The
 * first rule whose phrase the text holds decides: within a file, its rules in their order; between
 * files, the order of `TEXT_RULE_FAMILIES` (index.ts). The weak rules (weak.ts) decide only when
 * neither these nor the status code does.
 */
export interface TextRule {
  reason: BounceReason;
  phrases: readonly string[];
}
