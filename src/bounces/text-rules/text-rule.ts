import type { BounceReason } from '../../domain/bounce-categories.js';
import type { PhraseFamily } from '../phrase-matcher.js';

/**
 * What the words of a diagnostic mean, as phrases (see ../phrase-matcher.ts for their syntax). The
 * first rule whose phrase the text holds decides: within a file, its rules in their order; between
 * files, the order of `TEXT_RULE_FAMILIES` (index.ts). The weak rules (weak.ts) decide only when
 * neither these nor the status code does.
 */
export interface TextRule {
  reason: BounceReason;
  phrases: readonly string[];
  /** Meanings written once for all their wordings, in every language read (languages/). */
  families?: readonly PhraseFamily[];
  /**
   * The subjects (RFC 3463: `3` mail system, `4` network) of an enhanced status that says more
   * than these words: with such a status, the status decides.
   */
  statusFirst?: readonly string[];
}
