import { ECHO_RULES } from './echoes.js';
import { LIMIT_AND_POLICY_RULES } from './limits-and-policy.js';
import { RECIPIENT_RULES } from './recipient.js';
import { ROAD_RULES } from './road.js';
import { SENDER_RULES } from './sender.js';
import type { TextRule } from './text-rule.js';
import { TRANSPORT_RULES } from './transport.js';

export type { TextRule } from './text-rule.js';
export { WEAK_TEXT_RULES } from './weak.js';

/**
 * Operators of DNS block lists and reputation services, by the domain of their lists, lookups and
 * removal pages: a host name or URL of theirs in a diagnostic (`zen.spamhaus.org`,
 * `https://www.spamhaus.org/query/ip/...`, Microsoft's `https://sender.office.com`) is a block
 * list's verdict on the sender, as strong as the words "blocked using". Domain → operator.
 */
export const BLOCK_LIST_HOSTS: Readonly<Record<string, string>> = {
  'spamhaus.org': 'spamhaus',
  'spamhaus.net': 'spamhaus',
  'spamcop.net': 'spamcop',
  'sorbs.net': 'sorbs',
  'barracudacentral.org': 'barracudacentral',
  'uceprotect.net': 'uceprotect',
  'abuseat.org': 'abuseat',
  'surbl.org': 'surbl',
  'uribl.com': 'uribl',
  'spamrats.com': 'spamrats',
  'mailspike.net': 'mailspike',
  'mailspike.org': 'mailspike',
  'psbl.org': 'psbl',
  'psbl.surriel.com': 'psbl',
  'senderscore.org': 'senderscore',
  'senderbase.org': 'senderbase',
  'talosintelligence.com': 'talos',
  'invaluement.com': 'invaluement',
  'abusix.com': 'abusix',
  'abusix.zone': 'abusix',
  'abusix.org': 'abusix',
  'cloudmark.com': 'cloudmark',
  'ipcheck.proofpoint.com': 'proofpoint',
  'sender.office.com': 'microsoft',
  'ers.trendmicro.com': 'trendmicro',
  'mail-abuse.com': 'trendmicro',
  'trustedsource.org': 'mcafee',
  'backscatterer.org': 'backscatterer',
  'manitu.net': 'nixspam',
  'spfbl.net': 'spfbl',
  'junkemailfilter.com': 'hostkarma',
  'dronebl.org': 'dronebl',
  'lashback.com': 'lashback',
  'blocklist.de': 'blocklist.de',
  'spameatingmonkey.net': 'spameatingmonkey',
  'gbudb.net': 'gbudb',
};

/** Labels that name a DNS block list whoever runs it: `dnsbl.example.net`, `rbl.example.org`. */
export const BLOCK_LIST_LABELS: ReadonlySet<string> = new Set([
  'dnsbl',
  'rbl',
  'dnsrbl',
  'rbldns',
  'blacklist',
  'blocklist',
]);

/**
 * The families of strong rules, each a file beside this one, in the order they are tried, since the
 * first phrase the text holds decides: from the most specific evidence to the least. The sending
 * server's own account of a broken connection quotes no reply, so nothing in it is the receiver's
 * reason. Echoes and automatic replies say nothing new about the mailbox whatever else they quote.
 * A server that refuses the sender says so, and may add "mailbox unavailable" or even "user
 * unknown" as a formula, never the other way round, and a refused sender address often carries
 * words about unknown domains: so the sender's families come before the recipient's, and the road's
 * failures last. This is the one statement of the order: docs/events.md lists the families by name,
 * and a test holds the list to this one.
 */
export const TEXT_RULE_FAMILIES: readonly { name: string; rules: readonly TextRule[] }[] = [
  { name: 'transport', rules: TRANSPORT_RULES },
  { name: 'echoes', rules: ECHO_RULES },
  { name: 'sender', rules: SENDER_RULES },
  { name: 'limits-and-policy', rules: LIMIT_AND_POLICY_RULES },
  { name: 'recipient', rules: RECIPIENT_RULES },
  { name: 'road', rules: ROAD_RULES },
];

/** The strong rules, in the order they are tried: the first whose phrase the text holds decides. */
export const TEXT_RULES: readonly TextRule[] = TEXT_RULE_FAMILIES.flatMap((family) => family.rules);
