import { readFileSync } from 'node:fs';
import type { BounceCategory } from '../../src/domain/bounce-categories.js';
import type { MailRecordKind } from '../../src/mail/report/mail-record.js';
import type { CorpusSplit } from './corpus-split.js';

/** One expected record: Sisimai's answer for one recipient, and the recipient as read from the message. */
export interface CorpusRecord {
  kind: MailRecordKind;
  recipient: string | null;
  /** Sisimai's status where the message carries it; null when it has none or Sisimai made one up. */
  status: string | null;
  reply_code: string | null;
  reason: string;
  hardbounce: boolean;
  feedback_type: string | null;
  /** Sisimai's reason by meaning (CATEGORY_OF_REASON), or the classifier corpus' reviewed category. */
  category: BounceCategory | null;
  /** Sisimai's status when the message does not carry it (its own `X.0.9xx` codes, or one from its reason). */
  sisimai_status?: string;
  sisimai_reply_code?: string;
  /** Why the category differs from Sisimai's reason. */
  disagreement?: string;
}

export interface CorpusRow {
  file: string;
  /** The MTA or provider the file is filed under (`postfix`, `google`, `arf`, `rfc3464`, ...). */
  style: string;
  split: CorpusSplit;
  source: string;
  /** How the recipients were read. */
  recipients_from: string;
  records: CorpusRecord[];
  notes?: string[];
}

/** Sisimai's reasons by meaning, as bench/classify/build-corpus.pl maps them. */
export const CATEGORY_OF_REASON: Readonly<Record<string, BounceCategory>> = {
  ...Object.fromEntries(
    ['userunknown', 'hostunknown', 'hasmoved', 'notaccept'].map((reason) => [reason, 'invalid_address']),
  ),
  ...Object.fromEntries(['mailboxfull', 'suspend', 'filtered'].map((reason) => [reason, 'mailbox_unavailable'])),
  ...Object.fromEntries(
    [
      'blocked',
      'badreputation',
      'rejected',
      'policyviolation',
      'securityerror',
      'spamdetected',
      'virusdetected',
      'contenterror',
      'norelaying',
      'authfailure',
      'requireptr',
      'notcompliantrfc',
      'ratelimited',
      'speeding',
      'toomanyconn',
      'failedstarttls',
      'mesgtoobig',
      'exceedlimit',
      'suppressed',
    ].map((reason) => [reason, 'sender_blocked']),
  ),
  ...Object.fromEntries(
    ['expired', 'networkerror', 'systemerror', 'systemfull', 'mailererror', 'syntaxerror'].map((reason) => [
      reason,
      'delivery_failure',
    ]),
  ),
  vacation: 'auto_reply',
  undefined: 'unknown',
  onhold: 'unknown',
};

/** Recipients read by hand where the plain reading of build-corpus.ts cannot: message stem → recipients in order. */
export const RECIPIENT_REVIEW: Readonly<Record<string, { recipients: string[]; note: string }>> = {
  'lhost-exchange2003-03': {
    recipients: ['kijitora@example.jp'],
    note: 'the notice lists kijitora@example.jp under "did not reach the following recipient(s)"; example.net is the To of its summary',
  },
  'lhost-imailserver-03': {
    recipients: ['kijitora@neko.example.co.jp'],
    note: '"Invalid final delivery userid: kijitora@neko.example.co.jp"; the quoted To is another address',
  },
  'lhost-imailserver-06': {
    recipients: ['kijitora@example.jp'],
    note: '"undeliverable to kijitora@example.jp"; the To: line is the summary of the sender',
  },
  'lhost-kddi-01': {
    recipients: ['kijitora@x0000000000000.dion.ne.jp'],
    note: '"Could not be delivered to: <kijitora@x0000000000000.dion.ne.jp>"',
  },
  'lhost-messagingserver-02': {
    recipients: ['kijitora@example.net'],
    note: 'Final-Recipient is a source route (@smtp.example.net:kijitora@server); the recipient is the Original-Recipient',
  },
  'lhost-notes-01': {
    recipients: ['kijitora@u1.example.co.jp'],
    note: 'the failure reasons name kijitora@u1.example.co.jp',
  },
  'lhost-notes-02': {
    recipients: ['kijitora@u1.example.co.jp'],
    note: 'the failure reasons name kijitora@u1.example.co.jp',
  },
  'lhost-notes-03': { recipients: ['kijitora@example.com'], note: 'the failure reasons name kijitora@example.com' },
  'lhost-opensmtpd-03': {
    recipients: ['kijitora@neko.example.jp'],
    note: '"kijitora@neko.example.jp: Domain does not exist"',
  },
  'lhost-postfix-79': {
    recipients: ['nekko@c.example.co.jp'],
    note: "Final-Recipient is a local name without a domain (kijitora@mailhub0); the sender's address is the Original-Recipient",
  },
  'lhost-qmail-01': {
    recipients: ['kijitora@example.ne.jp'],
    note: 'qmail names <kijitora@example.ne.jp>; the quoted To was forwarded from elsewhere',
  },
  'lhost-qmail-09': { recipients: ['neko@example.co.jp'], note: 'qmail names <neko@example.co.jp>' },
  'lhost-qmail-12': { recipients: ['nyaan@example.org'], note: 'qmail names <nyaan@example.org>' },
  'lhost-x1-02': {
    recipients: ['kijitora@example.org'],
    note: '"kijitora@example.org [User unknown]" under the addresses that had delivery errors',
  },
  'lhost-x2-01': { recipients: ['kijitora@example.co.jp'], note: 'the notice names <kijitora@example.co.jp>' },
  'lhost-exim-52': {
    recipients: ['neko@example.net'],
    note: 'the malformed To "kijitora@example.com <neko@example.net>" is the phrase kijitora@example.com and the address neko@example.net',
  },
  'rhost-franceptt-03': {
    recipients: ['pseudo-local-part-kijitora@wanadoo.fr'],
    note: 'Exim names pseudo-local-part-kijitora@wanadoo.fr (generated from the quoted To)',
  },
  'rhost-franceptt-04': { recipients: ['xxxx@xxxx.fr'], note: 'Exim names xxxx@xxxx.fr as the failed address' },
  'rhost-microsoft-06': {
    recipients: ['sabineko@example.onmicrosoft.com'],
    note: 'the qmail notice names <sabineko@example.onmicrosoft.com>; the quoted To was forwarded from elsewhere',
  },
};

/**
 * Categories read from the text where it clearly means other than Sisimai's reason, as the
 * classifier corpus's overrides are (`bench/classify/build-corpus.pl`): `<stem>#<recipient>` →
 * category and why. Only development messages were read for this.
 */
export const CATEGORY_REVIEW: Readonly<Record<string, { category: BounceCategory; note: string }>> = {
  'lhost-sendmail-40#1': { category: 'invalid_address', note: 'text says Unknown user; Sisimai: filtered' },
  'lhost-sendmail-51#1': { category: 'invalid_address', note: 'text says User unknown; Sisimai: filtered' },
  'lhost-receivingses-02#1': {
    category: 'invalid_address',
    note: 'text says Mailbox does not exist (5.1.1); Sisimai: filtered',
  },
  'lhost-x1-02#1': { category: 'invalid_address', note: 'text says User unknown; Sisimai: filtered' },
  'lhost-trendmicro-03#1': {
    category: 'unknown',
    note: 'text says only "Unable to deliver message to" the recipient, and not why; Sisimai: userunknown',
  },
};

/** Messages whose kind is read otherwise than Sisimai's: message stem → kind and why. */
export const KIND_REVIEW: Readonly<Record<string, { kind: MailRecordKind; note: string }>> = {
  'lhost-sendmail-14': {
    kind: 'not_a_report',
    note: "a person forwarded a bounce (Fwd:, from a person's address): not a report the service should act on",
  },
};

export const CORPUS_URL = new URL('../../test/fixtures/mail/corpus.json', import.meta.url);
export const MESSAGES_URL = new URL('../../test/fixtures/mail/sisimai/', import.meta.url);

export function readMailCorpus(): CorpusRow[] {
  return JSON.parse(readFileSync(CORPUS_URL, 'utf8')) as CorpusRow[];
}
