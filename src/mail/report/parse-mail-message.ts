import { findAddresses, sameAddress } from './addresses.js';
import { isAutoReply } from './auto-reply.js';
import { deliveryStatusRecords, onlyDeliveries, readDeliveryStatus, type DeliveryStatus } from './delivery-status.js';
import { feedbackRecords } from './feedback-report.js';
import { providerComplaintRecords } from './provider-complaints.js';
import { sesNotificationRecords } from './amazon-ses-notification.js';
import { MailMessageTooLargeError } from './mail-errors.js';
import {
  emptyRecord,
  MAX_NOTICE_CHARS,
  MAX_RECORDS,
  type MailRecord,
  type OriginalMessage,
  type ParsedMailMessage,
} from './mail-record.js';
import { readHeaderBlock, readMime, type MimeMessage } from './mime-message.js';
import { mtaStyle } from './mta-style.js';
import { fromMailSystem, looksLikeNotice, noticeSubject } from './notice-signals.js';
import { codedParagraph, lastParagraph, noticeLines, readNotice, type NoticeEntry } from './notice-text.js';
import { quotedHeaderBlock } from './quoted-original.js';
import { readOriginalHeaders, readReportHeaders } from './report-headers.js';
import { cleanDiagnostic, hasCode, replyCodeInText, statusInText } from './smtp-codes.js';

/** The largest message read by default, in bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface ParseMailOptions {
  /** The largest message read, in bytes; a larger one is refused with `MailMessageTooLargeError`. */
  maxBytes?: number;
}

// A notice that says the MTA keeps trying: a warning, not the final failure. Linear: fixed words.
const DELAY_WORDS =
  /delayed|delay\)|will (?:continue to |keep )?(?:try|retry|attempt)|still (?:trying|being retried|retrying)|not yet been delivered|could not send message for past|no action is required|will be retried|temporarily deferred/i;
const FINAL_WORDS = /giving up|permanent|failed permanently|has been (?:returned|deleted)|will not be retried|gave up/i;

async function readOriginal(
  mime: MimeMessage,
  allLines: readonly string[],
  noticeEnd: number,
): Promise<OriginalMessage | null> {
  const enclosed = mime.enclosed[0];
  if (enclosed) return readOriginalHeaders(await readHeaderBlock(enclosed));
  const block = quotedHeaderBlock(allLines, noticeEnd);
  return block === null ? null : readOriginalHeaders(await readHeaderBlock(block));
}

function failedRecipientsHeader(mime: MimeMessage): string[] {
  return mime.headers
    .filter((header) => header.key === 'x-failed-recipients')
    .flatMap((header) => findAddresses(header.value).map((found) => found.address))
    .slice(0, MAX_RECORDS);
}

function noticeRecord(entry: NoticeEntry, delayed: boolean): MailRecord {
  const diagnostic = cleanDiagnostic(entry.diagnostic);
  const status = statusInText(diagnostic);
  const reply = replyCodeInText(diagnostic);
  const permanent = status?.startsWith('5') === true || reply?.startsWith('5') === true;
  return {
    ...emptyRecord(delayed && !permanent ? 'delay' : 'bounce', entry.recipient),
    status,
    reply_code: reply,
    diagnostic,
  };
}

/**
 * The entries of the notice, held to the header's X-Failed-Recipients (Exim, Gmail) where it is
 * given: a failed recipient the text does not name takes the explanation of a named one the
 * header does not list, in order.
 */
function noticeEntries(
  mime: MimeMessage,
  lines: readonly string[],
  excluded: (address: string) => boolean,
): NoticeEntry[] {
  const entries = readNotice(lines, excluded);
  const failed = failedRecipientsHeader(mime);
  if (failed.length === 0) return entries;
  const spare = entries.filter((entry) => !failed.some((address) => sameAddress(address, entry.recipient)));
  return failed.map(
    (address) =>
      entries.find((entry) => sameAddress(entry.recipient, address)) ?? {
        recipient: address,
        diagnostic:
          spare.shift()?.diagnostic ??
          (failed.length === 1 ? (codedParagraph(lines) ?? lastParagraph(lines) ?? '') : ''),
      },
  );
}

function deliveryStatusOf(mime: MimeMessage): DeliveryStatus | null {
  const text = mime.text.slice(0, MAX_NOTICE_CHARS);
  const texts = mime.deliveryStatus.length > 0 ? mime.deliveryStatus : /^Final-Recipient:/im.test(text) ? [text] : [];
  for (const text of texts) {
    const status = readDeliveryStatus(text);
    if (status.recipients.length > 0) return status;
  }
  return null;
}

/**
 * Reads one message (RFC 5322 bytes) as the evidence it holds: the failed recipients of a
 * delivery status notification (RFC 3464, or the sentences of an MTA that writes none), the
 * complaint of a feedback report (RFC 5965), an automatic reply (RFC 3834), or nothing: a message
 * that is none of those gives one `not_a_report` record. Asynchronous, as the MIME parser is.
 *
 * @throws MailMessageTooLargeError when the message is larger than `maxBytes` (10 MB by default)
 * @throws UnreadableMailMessageError when its MIME structure exceeds the parser's limits
 */
export async function parseMailMessage(raw: Uint8Array, options: ParseMailOptions = {}): Promise<ParsedMailMessage> {
  const limit = options.maxBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (raw.length > limit) throw new MailMessageTooLargeError(raw.length, limit);
  return readReport(await readMime(raw), true);
}

/** Whether an enclosed message is itself a delivery status notification (its Content-Type says so). */
function isEnclosedReport(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 8192)).toLowerCase();
  return /content-type:\s*multipart\/report;[\s\S]{0,200}?report-type="?delivery-status/.test(head);
}

async function readReport(mime: MimeMessage, outermost: boolean): Promise<ParsedMailMessage> {
  const report = readReportHeaders(mime.email);
  const text = mime.text.slice(0, MAX_NOTICE_CHARS);
  const allLines = text.replace(/\r\n?/g, '\n').split('\n');
  const lines = noticeLines(text);
  const original = await readOriginal(mime, allLines, lines.length);
  const result = (records: MailRecord[], format: string): ParsedMailMessage => ({ records, format, report, original });

  if (mime.feedbackReports.length > 0) {
    return result(feedbackRecords(mime.feedbackReports.join('\n\n'), original, report.delivered_to), 'arf');
  }

  const complaints = providerComplaintRecords(mime.headers, text, original, report.from);
  if (complaints !== null) return result(complaints, 'arf');
  const ses = sesNotificationRecords(text);
  if (ses !== null) return result(ses.length > 0 ? ses : [emptyRecord('not_a_report', null)], 'amazonses');

  const notSender = new Set(
    [report.from, ...report.to, original?.from, original?.return_path]
      .filter((address): address is string => typeof address === 'string')
      .map((address) => address.toLowerCase()),
  );
  const excluded = (address: string): boolean => notSender.has(address.toLowerCase());
  const subject = report.subject;
  const notice = lines.join('\n');

  // A gateway that forwards a notice in a notice of its own (the DSN enclosed as message/rfc822):
  // the enclosed one is the report. Read one level deep only.
  const enclosed = mime.enclosed[0];
  if (outermost && mime.deliveryStatus.length === 0 && enclosed && isEnclosedReport(enclosed)) {
    const inner = await readReport(await readMime(enclosed), false);
    if (inner.records.some((record) => record.kind === 'bounce' || record.kind === 'delay'))
      return { ...inner, report };
  }

  const status = deliveryStatusOf(mime);
  if (status !== null) {
    const entries = readNotice(lines, excluded);
    const textFor = (recipient: string): string | null =>
      entries.find((entry) => sameAddress(entry.recipient, recipient))?.diagnostic ??
      (status.recipients.length === 1
        ? entries.length === 1
          ? (entries[0] as NoticeEntry).diagnostic
          : (codedParagraph(lines) ?? lastParagraph(lines))
        : null);
    const records = deliveryStatusRecords(status, textFor);
    if (records.length > 0) return result(records, 'rfc3464');
    if (onlyDeliveries(status)) return result([emptyRecord('not_a_report', null)], 'rfc3464');
  }

  const autoReply = isAutoReply(mime.headers, subject) && !fromMailSystem(mime.headers) && !noticeSubject(subject);
  if (!autoReply && looksLikeNotice(mime.headers, subject, notice)) {
    let entries = noticeEntries(mime, lines, excluded);
    if (entries.length === 0 && original !== null) {
      entries = original.to
        .filter((address) => !excluded(address))
        .map((recipient) => ({ recipient, diagnostic: notice }));
    }
    // A notice that names its one recipient away from its explanation (in a summary of the
    // message) says what failed in the paragraph that carries the server's code.
    const only = entries[0];
    if (entries.length === 1 && only && !hasCode(only.diagnostic)) {
      const coded = codedParagraph(lines);
      if (coded !== null) entries = [{ recipient: only.recipient, diagnostic: coded }];
    }
    if (entries.length > 0) {
      const delayed = DELAY_WORDS.test(`${subject ?? ''}\n${notice}`) && !FINAL_WORDS.test(notice);
      return result(
        entries.map((entry) => noticeRecord(entry, delayed)),
        mtaStyle(mime.headers, text),
      );
    }
  }

  if (isAutoReply(mime.headers, subject)) {
    const record = { ...emptyRecord('auto_reply', report.from), diagnostic: cleanDiagnostic(notice) };
    return result([record], 'rfc3834');
  }
  return result([emptyRecord('not_a_report', null)], 'none');
}
