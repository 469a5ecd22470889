import { randomUUID } from 'node:crypto';

/** Raw mail messages for tests, written as the MTAs and mailbox providers write them (CRLF lines). */

export interface DsnRecipient {
  recipient: string;
  status: string;
  diagnostic: string;
  action?: string;
}

/** An RFC 3464 delivery status notification, as Postfix sends one, to `to` (the return path). */
export function dsn(to: string, recipients: readonly DsnRecipient[], original: { messageId?: string } = {}): Buffer {
  const boundary = 'dsn-boundary';
  const groups = recipients.flatMap(({ recipient, status, diagnostic, action = 'failed' }) => [
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    'Remote-MTA: dns; mx.example.org',
    `Diagnostic-Code: smtp; ${diagnostic}`,
  ]);
  return Buffer.from(
    [
      'Return-Path: <>',
      'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
      `To: ${to}`,
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: <${randomUUID()}@mx.example.net>`,
      'Date: Fri, 27 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is the mail system at host mx.example.net.',
      '',
      "I'm sorry to have to inform you that your message could not be delivered.",
      '',
      `--${boundary}`,
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      'Arrival-Date: Fri, 27 Nov 2026 09:59:58 +0000',
      ...groups,
      '',
      `--${boundary}`,
      'Content-Type: text/rfc822-headers',
      '',
      `Return-Path: <${to}>`,
      'From: news@sender.example.com',
      `To: ${recipients[0]?.recipient ?? 'nobody@example.org'}`,
      'Subject: Our news',
      ...(original.messageId ? [`Message-ID: ${original.messageId}`] : []),
      '',
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** An RFC 5965 ARF report of `complainant`, about a message whose return path was `returnPath`. */
export function arf(complainant: string, returnPath: string, feedbackType = 'abuse'): Buffer {
  const boundary = 'arf-boundary';
  return Buffer.from(
    [
      'From: feedbackloop@isp.example',
      'To: fbl@sender.example.com',
      'Subject: FW: Our news',
      `Message-ID: <${randomUUID()}@isp.example>`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain',
      '',
      'This is an email abuse report for an email message received from IP 192.0.2.1.',
      '',
      `--${boundary}`,
      'Content-Type: message/feedback-report',
      '',
      `Feedback-Type: ${feedbackType}`,
      'User-Agent: SomeGenerator/1.0',
      'Version: 1',
      `Original-Rcpt-To: <${complainant}>`,
      '',
      `--${boundary}`,
      'Content-Type: message/rfc822',
      '',
      `Return-Path: <${returnPath}>`,
      'From: news@sender.example.com',
      `To: ${complainant}`,
      'Subject: Our news',
      'Message-ID: <news-1@sender.example.com>',
      '',
      'Hello.',
      '',
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** An RFC 3834 automatic reply to `to`. */
export function autoReply(to: string, from: string): Buffer {
  return Buffer.from(
    [
      `From: ${from}`,
      `To: ${to}`,
      'Subject: Out of office: Our news',
      'Auto-Submitted: auto-replied',
      `Message-ID: <${randomUUID()}@example.org>`,
      '',
      'I am away until Monday and will read your message then.',
      '',
    ].join('\r\n'),
  );
}

/** A message from a person, sent to the bounce address. */
export function personalMessage(to: string): Buffer {
  return Buffer.from(
    [
      'From: Jane <jane@example.org>',
      `To: ${to}`,
      'Subject: Question about your newsletter',
      `Message-ID: <${randomUUID()}@example.org>`,
      '',
      'Hello, how do I change my address? Thanks, Jane',
      '',
    ].join('\r\n'),
  );
}
