import { createHash } from 'node:crypto';
import { BOUNCE_REASONS, type BounceCategory, type BounceReason } from '../domain/bounce-categories.js';
import { PhraseMatcher, words } from './phrase-matcher.js';
import {
  ECHO_SUB_TYPES,
  ORANGE_CODE_PREFIXES,
  ORANGE_CODES,
  PERMANENT_LABELS,
  RECIPIENT_UNIDENTIFIED,
  SUB_TYPE_RULES,
} from './provider-rules.js';
import { REPLY_CODE_RULES, STATUS_RULES, STATUS_SUBJECT_RULES } from './status-rules.js';
import { BLOCK_LIST_HOSTS, BLOCK_LIST_LABELS, TEXT_RULES, WEAK_TEXT_RULES } from './text-rules/index.js';

/** Whatever a bounce carries; every field may be missing. */
export interface BounceEvidence {
  /** The enhanced status (`5.1.1`); a bare reply code here is read as one. */
  status?: string | null | undefined;
  /** The SMTP reply code (`550`). */
  reply_code?: string | number | null | undefined;
  /** The remote server's text, as the provider passes it on. */
  diagnostic?: string | null | undefined;
  /** The provider's label: `permanent`, `transient`, `undetermined`, or its own word (`HardBounce`). */
  type?: string | null | undefined;
  /** The provider's finer word: SES `bounceSubType`, SendGrid `bounce_classification`, Postmark `Type`, Mailgun `reason`. */
  sub_type?: string | null | undefined;
  /** Who reported it: `ses`, `sendgrid`, `postmark`, `mailgun`, `resend`, or the mail system's own name. */
  provider?: string | null | undefined;
  /** The receiving server, where known. */
  remote_mta?: string | null | undefined;
}

export interface BounceClassification {
  category: BounceCategory;
  reason: BounceReason;
  /** What decided: `echo:<sub-type>`, `text:<phrase>`, `host:<operator>`, `code:orange-<code>`, `status:X.<subject>.<detail>`, `reply:<code>`, `sub_type:<word>`; when nothing decides, `label:permanent` (the provider's label, kept as evidence) or `none`. */
  rule: string;
}

const strongText = new PhraseMatcher(TEXT_RULES);
const BLOCK_LIST_GROUP = TEXT_RULES.findIndex((rule) => rule.reason === 'blocklisted');
const weakText = new PhraseMatcher(WEAK_TEXT_RULES);

/**
 * The classifier's version: a digest of its tables and of the category of each reason, so a record
 * says which rules decided it and a change of any rule is a new version.
 */
export const CLASSIFIER_VERSION = `1.${createHash('sha256')
  .update(
    JSON.stringify([
      TEXT_RULES,
      WEAK_TEXT_RULES,
      STATUS_RULES,
      STATUS_SUBJECT_RULES,
      REPLY_CODE_RULES,
      BLOCK_LIST_HOSTS,
      [...BLOCK_LIST_LABELS],
      ORANGE_CODES,
      SUB_TYPE_RULES,
      [...ECHO_SUB_TYPES],
      [...PERMANENT_LABELS],
      BOUNCE_REASONS,
    ]),
  )
  .digest('hex')
  .slice(0, 8)}`;

// Linear: each is anchored by fixed characters and bounded repeats, so no input makes them backtrack.
const STATUS_PATTERN = /(?:^|[^\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
const WHOLE_STATUS = /^\s*([245])\.(\d{1,3})\.(\d{1,3})\s*$/;
const REPLY_IN_TEXT = /(?:^|[^\d.])([245]\d\d)(?:[\s-]|$)/;
const WHOLE_REPLY = /^\s*([245]\d\d)\s*$/;

/** A table's entry for a key read from the evidence: only the table's own keys, never `__proto__` and kin. */
function lookup(table: Readonly<Record<string, BounceReason>>, key: string | null): BounceReason | undefined {
  return key !== null && Object.hasOwn(table, key) ? table[key] : undefined;
}

function decided(reason: BounceReason, rule: string): BounceClassification {
  return { category: BOUNCE_REASONS[reason], reason, rule };
}

interface Status {
  /** `2`, `4` or `5`. */
  class: string;
  /** Subject (RFC 3463): `7`. */
  subject: string;
  detail: number;
  /** Subject and detail, as STATUS_RULES is keyed: `7.1`. */
  key: string;
}

/** The enhanced status of the field, else the first one the text holds. */
function statusOf(evidence: BounceEvidence, text: string): Status | null {
  const status = (evidence.status && WHOLE_STATUS.exec(evidence.status)) || STATUS_PATTERN.exec(text);
  if (!status) return null;
  const subject = String(Number(status[2]));
  const detail = Number(status[3]);
  return { class: status[1] as string, subject, detail, key: `${subject}.${detail}` };
}

/** What the status says, by its subject and detail, else by its subject alone; null if nothing. */
function byStatus(status: Status | null): BounceClassification | null {
  if (status === null) return null;
  const reason = lookup(STATUS_RULES, status.key);
  if (reason) return decided(reason, `status:X.${status.key}`);
  const bySubject = Object.hasOwn(STATUS_SUBJECT_RULES, status.subject)
    ? STATUS_SUBJECT_RULES[status.subject]
    : undefined;
  return bySubject && status.detail > bySubject.registered
    ? decided(bySubject.reason, `status:X.${status.subject}.${status.detail}`)
    : null;
}

// Host names and URLs are cut into host names at these, and into labels at any other character.
const NOT_IN_HOST = /[^a-z0-9.-]+/;
const LABEL_BREAK = /[^a-z0-9]+/;
// The label of each listed domain that comes before its top-level domain (`spamhaus` of
// `zen.spamhaus.org`, `abuse` of `mail-abuse.com`): only a host with one of them is looked up in full.
const BLOCK_LIST_KEYS: ReadonlySet<string> = new Set(
  Object.keys(BLOCK_LIST_HOSTS).flatMap((domain) => (domain.split('.').at(-2) as string).split(LABEL_BREAK)),
);

/** The block-list operator a host name or URL names (a word that starts with a dot), or null. */
function blockListHost(word: string): string | null {
  const labels = word.split(LABEL_BREAK);
  if (labels.some((label) => BLOCK_LIST_KEYS.has(label))) {
    for (const host of word.split(NOT_IN_HOST)) {
      const parts = host.split('.').filter((label) => label !== '');
      // The listed domains have two or three labels: only the host's last few are looked up.
      for (let count = 2; count <= Math.min(3, parts.length); count += 1) {
        const domain = parts.slice(-count).join('.');
        if (Object.hasOwn(BLOCK_LIST_HOSTS, domain)) return BLOCK_LIST_HOSTS[domain] as string;
      }
    }
  }
  return labels.find((label) => BLOCK_LIST_LABELS.has(label)) ?? null;
}

const ORANGE = new Map(Object.entries(ORANGE_CODES));
const ORANGE_FIRST_LETTERS = new Set(ORANGE_CODE_PREFIXES.map((prefix) => prefix.charCodeAt(0)));
const THREE_DIGITS = /^\d{3}$/;

/** Orange's code at `at` (`ofr004` `104`), or undefined. */
function orangeCode(textWords: readonly string[], at: number): string | undefined {
  const word = textWords[at] as string;
  const next = textWords[at + 1];
  if (next === undefined || !THREE_DIGITS.test(next)) return undefined;
  return ORANGE_CODE_PREFIXES.some((prefix) => word.startsWith(prefix)) ? next : undefined;
}

/**
 * What the operators say in the words, in one pass: a block list's host name or URL
 * (BLOCK_LIST_HOSTS), or Orange's documented code (ORANGE_CODES); null if neither. Other
 * providers' codes are words of the text rules (text-rules/sender.ts).
 */
function operatorsVerdict(textWords: readonly string[]): BounceClassification | null {
  for (let at = 0; at < textWords.length; at += 1) {
    const word = textWords[at] as string;
    const first = word.charCodeAt(0);
    if (first === 46) {
      const operator = blockListHost(word);
      if (operator !== null) return decided('blocklisted', `host:${operator}`);
    } else if (ORANGE_FIRST_LETTERS.has(first)) {
      const orange = orangeCode(textWords, at);
      const reason = orange === undefined ? undefined : ORANGE.get(orange);
      if (reason) return decided(reason, `code:orange-${orange}`);
    }
  }
  return null;
}

/** Whether the class of the status, else of the reply code, is 5: a permanent failure. */
function isPermanent(status: Status | null, reply: string | null): boolean {
  return status !== null ? status.class === '5' : reply?.startsWith('5') === true;
}

function replyCode(evidence: BounceEvidence, text: string): string | null {
  const given = evidence.reply_code;
  if (typeof given === 'number' || (typeof given === 'string' && given.trim() !== '')) {
    const match = WHOLE_REPLY.exec(String(given));
    if (match) return match[1] as string;
  }
  const fromStatus = evidence.status ? WHOLE_REPLY.exec(evidence.status) : null;
  if (fromStatus) return fromStatus[1] as string;
  return REPLY_IN_TEXT.exec(text)?.[1] ?? null;
}

/**
 * The category, reason and rule of one bounce, from its evidence in order of strength:
 *
 * 1. the provider's refusal because of its own list (an echo, see provider-rules.ts), or a feed's
 *    word that the bounce cannot be pinned on this recipient;
 * 2. the diagnostic's strong phrases (text-rules/);
 * 3. the enhanced status code, by subject and detail (status-rules.ts);
 * 4. the diagnostic's weak phrases;
 * 5. the reply code;
 * 6. the provider's sub-type or classification;
 * 7. nothing else: `unknown`. A permanent label is kept as the reason (`label_permanent`, rule
 *    `label:permanent`), so the history shows the provider said so, but it decides nothing: a
 *    provider labels every 5xx permanent, a block-listed sending IP as well as a dead address. Under
 *    the default actions such bounces count toward the soft-bounce threshold, so a dead address
 *    that nobody can read still leaves the list of mailable addresses.
 *
 * So the text decides before the code, and the code before the provider's words.
 */
export function classifyBounce(evidence: BounceEvidence): BounceClassification {
  const subType = evidence.sub_type?.trim().toLowerCase() ?? '';
  if (ECHO_SUB_TYPES.has(subType)) return decided('provider_suppressed', `echo:${subType}`);
  if (subType === RECIPIENT_UNIDENTIFIED.toLowerCase()) return decided('recipient_unidentified', `sub_type:${subType}`);

  const text = evidence.diagnostic ?? '';
  const textWords = text === '' ? [] : words(text);
  const strong = strongText.match(textWords);
  if (strong === null || strong.group > BLOCK_LIST_GROUP) {
    const operators = operatorsVerdict(textWords);
    if (operators) return operators;
  }
  const status = statusOf(evidence, text);
  const statusSays = byStatus(status);
  if (strong) {
    const rule = TEXT_RULES[strong.group] as (typeof TEXT_RULES)[number];
    if (statusSays && status && rule.statusFirst?.includes(status.subject)) return statusSays;
    return decided(rule.reason, `text:${strong.phrase}`);
  }
  if (statusSays) return statusSays;

  const reply = replyCode(evidence, text);
  const weak = weakText.match(textWords);
  if (weak) {
    const reason = (WEAK_TEXT_RULES[weak.group] as (typeof WEAK_TEXT_RULES)[number]).reason;
    // RFC 5321 words 550 "mailbox unavailable (e.g., mailbox not found)" and 450 "mailbox
    // unavailable (e.g., mailbox busy)": the formula with a permanent class is a mailbox not found.
    if (reason === 'mailbox_unavailable' && isPermanent(status, reply)) {
      return decided('user_unknown', `text:${weak.phrase}+5xx`);
    }
    return decided(reason, `text:${weak.phrase}`);
  }

  const byReply = lookup(REPLY_CODE_RULES, reply);
  if (byReply) return decided(byReply, `reply:${reply}`);

  const bySubType = lookup(SUB_TYPE_RULES, subType);
  if (bySubType) return decided(bySubType, `sub_type:${subType}`);

  if (PERMANENT_LABELS.has(evidence.type?.trim().toLowerCase() ?? ''))
    return decided('label_permanent', 'label:permanent');
  return decided('unclassified', 'none');
}
