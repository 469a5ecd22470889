import { createHash } from 'node:crypto';
import { BOUNCE_REASONS, type BounceCategory, type BounceReason } from '../domain/bounce-categories.js';
import { PhraseMatcher, words } from './phrase-matcher.js';
import { ECHO_SUB_TYPES, PERMANENT_LABELS, RECIPIENT_UNIDENTIFIED, SUB_TYPE_RULES } from './provider-rules.js';
import { REPLY_CODE_RULES, STATUS_RULES } from './status-rules.js';
import { BLOCK_LIST_HOSTS, TEXT_RULES, WEAK_TEXT_RULES } from './text-rules/index.js';

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
  /** What decided: `echo:<sub-type>`, `text:<phrase>`, `host:<operator>`, `status:X.<subject>.<detail>`, `reply:<code>`, `sub_type:<word>`; when nothing decides, `label:permanent` (the provider's label, kept as evidence) or `none`. */
  rule: string;
}

const strongText = new PhraseMatcher(TEXT_RULES.map((rule) => rule.phrases));
const BLOCK_LIST_GROUP = TEXT_RULES.findIndex((rule) => rule.reason === 'blocklisted');
const weakText = new PhraseMatcher(WEAK_TEXT_RULES.map((rule) => rule.phrases));

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
      REPLY_CODE_RULES,
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
  /** Subject and detail, as STATUS_RULES is keyed: `7.1`. */
  key: string;
}

/** The enhanced status of the field, else the first one the text holds. */
function statusOf(evidence: BounceEvidence, text: string): Status | null {
  const status = (evidence.status && WHOLE_STATUS.exec(evidence.status)) || STATUS_PATTERN.exec(text);
  return status ? { class: status[1] as string, key: `${Number(status[2])}.${Number(status[3])}` } : null;
}

/** The block-list operator a host name or URL of the text names (words that start with a dot), or null. */
function blockListHost(textWords: readonly string[]): string | null {
  for (const word of textWords) {
    if (!word.startsWith('.')) continue;
    for (const part of word.split(/[^a-z0-9]+/)) if (BLOCK_LIST_HOSTS.has(part)) return part;
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
  const listHost = strong === null || strong.group > BLOCK_LIST_GROUP ? blockListHost(textWords) : null;
  if (listHost !== null) return decided('blocklisted', `host:${listHost}`);
  if (strong) return decided((TEXT_RULES[strong.group] as (typeof TEXT_RULES)[number]).reason, `text:${strong.phrase}`);

  const status = statusOf(evidence, text);
  const byStatus = lookup(STATUS_RULES, status?.key ?? null);
  if (byStatus) return decided(byStatus, `status:X.${status?.key}`);

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
