import type { Header } from 'postal-mime';
import { firstAddress } from './addresses.js';
import { isDaemonAddress } from './notice-text.js';
import { headerValue } from './report-headers.js';

// The subjects of failure notices, by their meaning: undelivered, returned, failed, delayed. Linear:
// one alternation of fixed words.
const NOTICE_SUBJECT =
  /undeliver|undelivered|not delivered|delivery (?:status|failure|failed|notification|problem|report|has failed|delayed|incomplete)|returned mail|return(?:ed)? to sender|mail delivery|failure notice|failed delivery|delivery error|could not send|nondeliverable|non-deliverable|non remis|no entregado|unzustellbar|nicht zustellbar|mail system error|permanent error|delayed mail|warning: message|message not delivered|error sending|unable to deliver|rejected|bounce|システムエラー|エラー|不達|配信/i;
// The openings of notices.
const NOTICE_TEXT =
  /could not be delivered|couldn't be delivered|was not delivered|wasn't delivered|undeliverable|delivery (?:has )?failed|delivery to the following recipient|permanent (?:fatal )?errors?|failed permanently|not be delivered|unable to deliver|delivery failure|message could not|mail system|mailer-daemon|error delivering|did not reach|non-delivery|has been delayed|still being retried|will be retried|will continue to|delivery attempts|could not deliver|rejected|returned|failed address|failed recipient|unknown (?:host|user)|user unknown|no such user|returning to sender/i;
const DAEMON_NAME = /mail delivery|mailer[- ]daemon|postmaster|mail administrator|delivery subsystem|mail system/i;
const FORWARD_OR_REPLY = /^\s*(?:re|fwd?|aw|wg|tr)\s*:/i;

/** Whether the sender is a mail system by its address or name (MAILER-DAEMON, postmaster, Mail Delivery System). */
export function fromMailSystem(headers: readonly Header[]): boolean {
  const from = headerValue(headers, 'from') ?? '';
  const address = firstAddress(from);
  if (address !== null && isDaemonAddress(address)) return true;
  return DAEMON_NAME.test(from) || headers.some((header) => header.key === 'x-failed-recipients');
}

/** The null reverse path of RFC 5321, which notices and automatic replies (RFC 3834) carry. */
export function nullReturnPath(headers: readonly Header[]): boolean {
  return headerValue(headers, 'return-path')?.replace(/\s/g, '') === '<>';
}

/** Whether the subject names a failed or delayed delivery (not in a reply or forward of one). */
export function noticeSubject(subject: string | null): boolean {
  return subject !== null && NOTICE_SUBJECT.test(subject) && !FORWARD_OR_REPLY.test(subject);
}

/** Whether the message reads as a failure notice by its sender, subject and text together. */
export function looksLikeNotice(headers: readonly Header[], subject: string | null, notice: string): boolean {
  if (fromMailSystem(headers) || noticeSubject(subject)) return true;
  return nullReturnPath(headers) && NOTICE_TEXT.test(notice);
}
