import { v5 } from 'uuid';
import type { BounceType, SuppressionEventInput } from '../../events/event-schema.js';
import type { MailRecord, MailRecordKind, ParsedMailMessage } from '../report/mail-record.js';
import type { Attribution } from './attribution.js';

/** The namespace of the source ids of reports' original messages (a UUIDv5 of their Message-ID). */
const MAIL_SOURCE_NAMESPACE = '7c1b4c8e-5f0a-4a5e-9a7d-2e6f1c3b9d40';

/** The provider an event of a report names: the report's reader (`postfix`, `rfc3464`, ...) under `mail`. */
function mailProvider(format: string): string {
  return `mail:${format}`.slice(0, 64);
}

/**
 * What each record came to:
 * - `event`: an event was queued for it, which the event worker decides as any other (the
 *   classifier and the account's bounce actions);
 * - `unverified`: the message acts for nobody (no valid return path), so nothing was queued;
 * - `recorded`: kept with the message only: a delay (the final report follows, if any) or a message
 *   that is not a report;
 * - `no_recipient`: a bounce whose recipient no one could read, under a bounce domain that acts
 *   without return paths.
 */
export type RecordOutcome = 'event' | 'unverified' | 'recorded' | 'no_recipient';

export interface RecordResult {
  index: number;
  kind: MailRecordKind;
  /** Whom it acts on: the return path's recipient, else the one the record names. */
  recipient: string | null;
  outcome: RecordOutcome;
  event_id: string | null;
}

export interface MessageEvidence {
  events: SuppressionEventInput[];
  results: RecordResult[];
}

/**
 * The label of a record: its code's class. `Action: failed` without a code says only that the
 * reporting MTA gave up, so it is no label: the classifier then decides from the text alone.
 */
function labelOf(record: MailRecord): BounceType {
  const code = record.status ?? record.reply_code ?? '';
  if (code.startsWith('5')) return 'permanent';
  if (code.startsWith('4')) return 'transient';
  return 'undetermined';
}

/** A bounce or an automatic reply as the evidence of an event, and of the classifier's decision on it. */
export function bounceOf(record: MailRecord, format: string) {
  const autoReply = record.kind === 'auto_reply';
  return {
    type: autoReply ? ('undetermined' as const) : labelOf(record),
    // An automatic reply carries no failure to read: its kind is the evidence.
    sub_type: autoReply ? 'autoresponder' : undefined,
    status: record.status ?? undefined,
    reply_code: record.reply_code ?? undefined,
    diagnostic: record.diagnostic ?? undefined,
    provider: mailProvider(format),
    remote_mta: record.remote_mta ?? undefined,
  };
}

function occurredAt(record: MailRecord, receivedAt: string): string {
  const arrived = record.arrival_date === null ? Number.NaN : Date.parse(record.arrival_date);
  // A report's own date is the sender's word: used only when it is not in the future.
  return Number.isFinite(arrived) && arrived <= Date.parse(receivedAt) ? new Date(arrived).toISOString() : receivedAt;
}

/**
 * The events a message's records give, and what came of each record. The event ids are the message's
 * digest and the record's place in it, so the same bytes, however often they arrive, are the same
 * events; the source id is the original message's, so its events are told together.
 */
export function messageEvidence(
  parsed: ParsedMailMessage,
  attribution: Attribution,
  { digest, receivedAt }: { digest: string; receivedAt: string },
): MessageEvidence {
  const events: SuppressionEventInput[] = [];
  const results: RecordResult[] = [];
  const originalId = parsed.original?.message_id ?? null;
  const sourceId = v5(originalId ?? digest, MAIL_SOURCE_NAMESPACE);
  for (const [index, record] of parsed.records.entries()) {
    const recipient = attribution.verified ? (attribution.recipient ?? record.recipient) : record.recipient;
    const result = { index, kind: record.kind, recipient, event_id: null };
    if (record.kind === 'delay' || record.kind === 'not_a_report') {
      results.push({ ...result, outcome: 'recorded' });
      continue;
    }
    if (!attribution.verified) {
      results.push({ ...result, outcome: 'unverified' });
      continue;
    }
    if (recipient === null) {
      results.push({ ...result, outcome: 'no_recipient' });
      continue;
    }
    const eventId = `mail:${digest}:${index}`;
    const common = {
      account_id: attribution.accountId,
      event_id: eventId,
      email: recipient,
      source_id: sourceId,
      occurred_at: occurredAt(record, receivedAt),
      scope: attribution.scope,
      ...(originalId === null ? {} : { provider_message_id: originalId }),
    };
    if (record.kind === 'complaint') {
      events.push({ ...common, type: 'complaint', complaint: { feedback_type: record.feedback_type ?? undefined } });
    } else {
      events.push({ ...common, type: 'bounce', bounce: bounceOf(record, parsed.format) });
    }
    results.push({ ...result, outcome: 'event', event_id: eventId });
  }
  return { events, results };
}
