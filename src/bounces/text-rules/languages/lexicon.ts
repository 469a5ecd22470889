import type { PhraseFamily } from '../../phrase-matcher.js';

/**
 * The meanings written in every language read, each used by one rule of the files above: the
 * words of a language for a meaning are added to the English ones of that rule.
 */
export const MEANINGS = [
  /** The address does not exist (recipient.ts, `user_unknown`). */
  'unknownUser',
  /** The domain does not exist (recipient.ts, `domain_unknown`). */
  'unknownDomain',
  /** The mailbox is full (limits-and-policy.ts, `mailbox_full`). */
  'fullMailbox',
  /** The mailbox or account is disabled, suspended, closed (recipient.ts, `mailbox_disabled`). */
  'disabledMailbox',
  /** An automatic reply: the recipient is away (echoes.ts, `out_of_office`). */
  'outOfOffice',
  /** The recipient's own setting refuses the mail (echoes.ts, `recipient_filter`). */
  'recipientFilter',
  /** The sender's address or domain is refused (sender.ts, `sender_address`). */
  'senderAddress',
  /** A block list names the sender (sender.ts, `blocklisted`). */
  'blockList',
  /** The mail was taken for spam (sender.ts, `spam_content`). */
  'spam',
  /** The connection failed or timed out (road.ts, `network_error`). */
  'noConnection',
  /** Try again later, with no reason given (weak.ts, `remote_error`). */
  'tryLater',
  /** Refused, with no reason given (weak.ts, `policy`). */
  'refused',
] as const;
export type Meaning = (typeof MEANINGS)[number];

export interface Vocabulary {
  phrases?: readonly string[];
  families?: readonly PhraseFamily[];
}

/** One language's words, by meaning. */
export type Lexicon = { readonly [meaning in Meaning]?: Vocabulary };
