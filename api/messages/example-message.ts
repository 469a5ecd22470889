import { messageRequest } from '../openapi/requests.js';

/** A standard delivery status notification, as Postfix sends one: the documented example of both endpoints. */
export const EXAMPLE_DSN = [
  'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
  'To: bounces+aebagbaf4vwvz2lrknvwd6f3d3dzdo5mfzfgo5n6t@bounces.example.com',
  'Subject: Undelivered Mail Returned to Sender',
  'MIME-Version: 1.0',
  'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain',
  '',
  'I could not deliver your message to <gone@example.org>.',
  '--b1',
  'Content-Type: message/delivery-status',
  '',
  'Reporting-MTA: dns; mx.example.net',
  '',
  'Final-Recipient: rfc822; gone@example.org',
  'Action: failed',
  'Status: 5.1.1',
  'Diagnostic-Code: smtp; 550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown',
  '--b1--',
  '',
].join('\r\n');

/** The request body of both endpoints: one message, verbatim. */
export const MESSAGE_BODY = messageRequest(
  'One message, as RFC 5322 bytes (`Content-Type: message/rfc822`).',
  EXAMPLE_DSN,
);
