import { MAX_DIAGNOSTIC_LENGTH } from './mail-record.js';

// Linear: each pattern is a bounded code between guards of one or two characters (a status is not
// part of a longer dotted number such as an IP address: no digit, nor a dot and a digit, after it).
const STATUS_IN_TEXT = /(?:^|[^\d.])([45]\.\d{1,3}\.\d{1,3})(?!\.?\d)/;
const REPLY_AND_STATUS = /(?:^|[^\d.])[45][0-5]\d[ '"-]{1,3}([45]\.\d{1,3}\.\d{1,3})(?!\.?\d)/;
const REPLY_IN_TEXT = /(?:^|[^\d.+/-])([45][0-5]\d)(?=[\s\-;,:)\]]|$)/;
const STATUS_VALUE = /^\s*([245]\.\d{1,3}\.\d{1,3})(?!\.?\d)/;

/**
 * The enhanced status code (`5.1.1`) of a text: the first that follows a reply code (`550 5.1.1`,
 * `550-'5.2.2`), which is the remote server's own, else the first; null when there is none.
 */
export function statusInText(text: string | null): string | null {
  if (!text) return null;
  return REPLY_AND_STATUS.exec(text)?.[1] ?? STATUS_IN_TEXT.exec(text)?.[1] ?? null;
}

/** The first SMTP reply code (`550`) of a text, or null. */
export function replyCodeInText(text: string | null): string | null {
  if (!text) return null;
  return REPLY_IN_TEXT.exec(text)?.[1] ?? null;
}

/** Whether the text carries an SMTP reply code or an enhanced status code. */
export function hasCode(text: string | null): boolean {
  return statusInText(text) !== null || replyCodeInText(text) !== null;
}

/** The status of a DSN `Status` field (`5.1.1 (Bad destination mailbox)`), or null. */
export function statusOfField(value: string | null): string | null {
  if (!value) return null;
  return STATUS_VALUE.exec(value)?.[1] ?? null;
}

/**
 * The status of a recipient: the one in the remote server's own text where it gives one (the
 * reporting MTA's Status field is its summary, often generic: `5.0.0`, or `4.4.7` for a message
 * that expired after the server's own `4.4.2`), else the field's.
 */
export function chooseStatus(field: string | null, text: string | null): string | null {
  return statusInText(text) ?? field;
}

// The turns of an SMTP session transcript: Postfix writes `In:` and `Out:`, Sendmail `>>>` and `<<<`.
const TRANSCRIPT_TURN = /\s(?=(?:In:|Out:|>>>|<<<)\s)/;
const TURN = /^(?:In:|Out:|>>>|<<<)\s/;
const CLIENT_TURN = /^(?:In:|>>>)\s/;
const FAILED_REPLY = /^(?:Out:|<<<)\s+([45]\d\d[\s-].*)$/;

/**
 * A session transcript (`... >>> RCPT To:<jane@example.com> <<< 550 5.1.1 User unknown`, `... In:
 * DATA Out: 451 4.3.0 Error: queue file write error`) down to the server's refusals, the replies
 * with a 4xx or 5xx code, after what the text says before it: the commands and the greetings
 * around them are left out, since the commands carry addresses and words ("MAIL FROM") that are no
 * reason. The text itself when it is no transcript.
 */
function refusalsOfTranscript(text: string): string {
  const turns = text.split(TRANSCRIPT_TURN);
  if (turns.length < 3 || !turns.some((turn) => CLIENT_TURN.test(turn))) return text;
  const before = TURN.test(turns[0] as string) ? [] : [turns[0] as string];
  const refusals = turns.flatMap((turn) => FAILED_REPLY.exec(turn)?.[1] ?? []);
  return refusals.length === 0 ? text : [...before, ...refusals].join(' ');
}

/**
 * Whitespace runs as single spaces, trimmed, a session transcript down to its refusals, at most
 * 2000 characters; null when empty.
 */
export function cleanDiagnostic(text: string | null | undefined): string | null {
  if (!text) return null;
  const clean = refusalsOfTranscript(text.replace(/\s+/g, ' ').trim());
  if (clean === '') return null;
  return clean.length > MAX_DIAGNOSTIC_LENGTH ? clean.slice(0, MAX_DIAGNOSTIC_LENGTH) : clean;
}
