import { ECHO_RULES } from './echoes.js';
import { LIMIT_AND_POLICY_RULES } from './limits-and-policy.js';
import { RECIPIENT_RULES } from './recipient.js';
import { ROAD_RULES } from './road.js';
import { SENDER_RULES } from './sender.js';
import type { TextRule } from './text-rule.js';

export type { TextRule } from './text-rule.js';
export { WEAK_TEXT_RULES } from './weak.js';

/**
 * Operators of DNS block lists and reputation services: a host name or URL of theirs in a
 * diagnostic (`zen.spamhaus.org`, `https://www.spamhaus.org/query/ip/...`) is a block list's
 * verdict on the sender, as strong as the words "blocked using".
 */
export const BLOCK_LIST_HOSTS: ReadonlySet<string> = new Set([
  'spamhaus',
  'spamcop',
  'sorbs',
  'barracudacentral',
  'uceprotect',
  'abuseat',
  'surbl',
  'uribl',
  'spamrats',
  'mailspike',
  'psbl',
  'dnsbl',
  'senderscore',
  'senderbase',
  'invaluement',
]);

/** The strong rules, in the order they are tried: the first whose phrase the text holds decides. */
export const TEXT_RULES: readonly TextRule[] = [
  ...ECHO_RULES,
  ...SENDER_RULES,
  ...LIMIT_AND_POLICY_RULES,
  ...RECIPIENT_RULES,
  ...ROAD_RULES,
];
