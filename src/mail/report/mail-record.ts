import type { MailRecordKind } from '../../domain/mail-records.js';

export { MAIL_RECORD_KINDS, type MailRecordKind } from '../../domain/mail-records.js';

export interface MailRecord {
  kind: MailRecordKind;
  /** The failed or complained-about recipient, domain lower-cased; null for `not_a_report`. */
  recipient: string | null;
  /** Enhanced status code, e.g. `5.1.1`. */
  status: string | null;
  /** SMTP reply code, e.g. `550`. */
  reply_code: string | null;
  /** The remote server's text (Diagnostic-Code text or the MTA's sentence), unfolded, trimmed, at most 2000 characters. */
  diagnostic: string | null;
  /** DSN Action (`failed`, `delayed`, ...). */
  action: string | null;
  remote_mta: string | null;
  reporting_mta: string | null;
  /** ISO 8601 when known. */
  arrival_date: string | null;
  /** ARF Feedback-Type (`abuse`, `fraud`, ...) of a complaint. */
  feedback_type: string | null;
  /** ARF User-Agent. */
  user_agent: string | null;
}

/** The report's own headers; `to` and `delivered_to` hold lower-cased addresses. */
export interface ReportHeaders {
  message_id: string | null;
  from: string | null;
  to: string[];
  subject: string | null;
  date: string | null;
  /** To, Delivered-To, X-Original-To and Envelope-To: where a VERP return path usually shows. */
  delivered_to: string[];
}

/** The original message the report encloses or quotes. */
export interface OriginalMessage {
  message_id: string | null;
  return_path: string | null;
  from: string | null;
  to: string[];
  subject: string | null;
  headers: [string, string][];
}

export interface ParsedMailMessage {
  /** One per recipient; exactly one `not_a_report` record when the message is not a report. */
  records: MailRecord[];
  /** Which reader decided: `rfc3464`, `arf`, `rfc3834`, `postfix`, `exim`, `qmail`, ... */
  format: string;
  report: ReportHeaders;
  original: OriginalMessage | null;
}

export const MAX_DIAGNOSTIC_LENGTH = 2000;

/**
 * The most records one message gives. A DSN names at most the recipients of one transaction
 * (RFC 5321 asks servers to take at least 100); more is not a report but an attack on the reader.
 */
export const MAX_RECORDS = 1000;

/**
 * How much of the readable text the readers look at: a notice says what failed in its first lines,
 * and the quoted original after them is only read for its headers.
 */
export const MAX_NOTICE_CHARS = 256 * 1024;

/** How much of a delivery-status or feedback-report part is read. */
export const MAX_REPORT_PART_CHARS = 1024 * 1024;

export function emptyRecord(kind: MailRecordKind, recipient: string | null): MailRecord {
  return {
    kind,
    recipient,
    status: null,
    reply_code: null,
    diagnostic: null,
    action: null,
    remote_mta: null,
    reporting_mta: null,
    arrival_date: null,
    feedback_type: null,
    user_agent: null,
  };
}
