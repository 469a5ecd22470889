import type { BounceReason } from '../categories.js';

/**
 * What the words of a diagnostic mean, as phrases (see ../phrase-matcher.ts for their syntax). The
 * first rule whose phrase the text holds decides, so the table runs from the most specific evidence
 * to the least:
 *
 * 1. an echo of a list (the provider's own suppression list) or an automatic reply, which say
 *    nothing new about the mailbox whatever else they quote;
 * 2. a refusal of the sender's address, before the words about unknown domains it often carries;
 * 3. strong evidence of a refusal because of the sender (a block list, authentication, rates,
 *    content, TLS, relaying, size): a server that refuses the sender says so, and may add
 *    "mailbox unavailable" or even "user unknown" as a formula, never the other way round;
 * 4. the address or its domain does not exist; the mailbox cannot take mail now;
 * 5. the road failed (time-outs, DNS, the queue);
 * 6. weak words of policy ("denied", "not allowed"), which decide only when nothing else does.
 */
export interface TextRule {
  reason: BounceReason;
  phrases: readonly string[];
}
