import type { Queryable } from '../../db/database.js';
import type { SuppressionEventInput } from '../../events/event-schema.js';
import { MailMessageTooLargeError, UnreadableMailMessageError } from '../report/mail-errors.js';
import type { ParsedMailMessage } from '../report/mail-record.js';
import { parseMailMessage } from '../report/parse-mail-message.js';
import { attributeMessage, type Attribution, type AttributionSettings } from './attribution.js';
import { mailDigest, type MailJob } from './mail-job.js';
import type { MailMessageStore } from './mail-reader-batches.js';
import { messageEvidence, type RecordResult } from './message-evidence.js';

export interface MailReaderDeps {
  /** Where return paths' secrets are read. */
  db: Queryable;
  /** The record of the messages read: `batchedMailMessageStore(db)`. */
  messages: MailMessageStore;
  /** Queues events on the events queue; resolves once Redis has taken them. */
  publish(events: readonly SuppressionEventInput[]): Promise<unknown>;
  settings: AttributionSettings;
  /** The largest message read, in bytes. */
  maxBytes: number;
}

/** What came of one message: read before (`duplicate`), unreadable, or read into its records. */
export type MailReading =
  | { outcome: 'duplicate' }
  | { outcome: 'unreadable'; reason: string }
  | { outcome: 'read'; format: string; verified: boolean; records: RecordResult[] };

/** A message that could not be read: kept as the one record it gives, of no report. */
const UNREADABLE_FORMAT = 'unreadable';

/** The message parsed, or why it cannot be: the parser's own refusals, never anything else. */
export async function parsedOrWhyNot(raw: Buffer, maxBytes: number): Promise<ParsedMailMessage | string> {
  try {
    return await parseMailMessage(raw, { maxBytes });
  } catch (error) {
    if (error instanceof MailMessageTooLargeError || error instanceof UnreadableMailMessageError) return error.message;
    throw error;
  }
}

/**
 * Reads one queued message: parses it, finds whose mail it is about, queues the events of its
 * records (which the event worker then decides as any other) and records the message. The same
 * bytes are read once: a message already recorded is a duplicate, and one whose reading stopped
 * half-way queues the same event ids again, which the events queue and the audit trail apply once.
 */
export async function readMailMessage(deps: MailReaderDeps, job: MailJob): Promise<MailReading> {
  const raw = Buffer.from(job.raw, 'base64');
  const digest = mailDigest(raw);
  if (await deps.messages.isRead(digest)) return { outcome: 'duplicate' };
  const row = { digest, source: job.source, receivedAt: job.received_at, size: raw.length };
  const parsed = await parsedOrWhyNot(raw, deps.maxBytes);
  if (typeof parsed === 'string') {
    await deps.messages.record({
      ...row,
      accountId: null,
      format: UNREADABLE_FORMAT,
      verified: false,
      unverifiedReason: null,
      records: [],
    });
    return { outcome: 'unreadable', reason: parsed };
  }
  const attribution: Attribution = await attributeMessage(deps.db, parsed, job.envelope, deps.settings, {
    now: new Date(job.received_at),
    uploadedBy: job.account_id,
  });
  const evidence = messageEvidence(parsed, attribution, { digest, receivedAt: job.received_at });
  if (evidence.events.length > 0) await deps.publish(evidence.events);
  await deps.messages.record({
    ...row,
    accountId: attribution.verified ? attribution.accountId : null,
    format: parsed.format,
    verified: attribution.verified,
    unverifiedReason: attribution.verified ? null : attribution.reason,
    records: evidence.results,
  });
  return { outcome: 'read', format: parsed.format, verified: attribution.verified, records: evidence.results };
}
