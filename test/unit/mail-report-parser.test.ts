import { describe, expect, it } from 'vitest';
import { parseMailMessage } from '../../src/mail/report/parse-mail-message.js';

const crlf = (lines: string[]): Buffer => Buffer.from(lines.join('\r\n'), 'utf8');

function dsn(recipients: { address: string; action: string; status: string; diagnostic: string }[]): Buffer {
  return crlf([
    'Return-Path: <>',
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.net>',
    'To: bounces+tok3n@sender.example.com',
    'Delivered-To: bounces+tok3n@sender.example.com',
    'Subject: Undelivered Mail Returned to Sender',
    'Message-ID: <report-1@mx.example.net>',
    'Date: Tue, 10 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.example.net.',
    '',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    'Arrival-Date: Tue, 10 Nov 2026 09:59:58 +0000',
    '',
    ...recipients.flatMap((recipient) => [
      `Final-Recipient: rfc822; ${recipient.address}`,
      `Action: ${recipient.action}`,
      `Status: ${recipient.status}`,
      'Remote-MTA: dns; mx.Example.ORG',
      `Diagnostic-Code: smtp; ${recipient.diagnostic}`,
      '',
    ]),
    '--b1',
    'Content-Type: message/rfc822',
    '',
    'Return-Path: <bounces+tok3n@sender.example.com>',
    'From: News <news@sender.example.com>',
    'To: Alice <alice@Example.ORG>',
    'Subject: Weekly news',
    'Message-ID: <original-1@sender.example.com>',
    '',
    'Hello',
    '--b1--',
    '',
  ]);
}

describe('parseMailMessage, by story', () => {
  it('when a standard DSN reports two failed recipients, then it gives two bounce records with their codes', async () => {
    const parsed = await parseMailMessage(
      dsn([
        {
          address: 'alice@Example.ORG',
          action: 'failed',
          status: '5.1.1',
          diagnostic: '550 5.1.1 <alice@example.org>: Recipient address rejected:\r\n    User unknown',
        },
        { address: 'bob@example.org', action: 'failed', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' },
      ]),
    );
    expect(parsed.format).toBe('rfc3464');
    expect(parsed.records).toMatchObject([
      {
        kind: 'bounce',
        recipient: 'alice@example.org',
        status: '5.1.1',
        reply_code: '550',
        diagnostic: '550 5.1.1 <alice@example.org>: Recipient address rejected: User unknown',
        action: 'failed',
        remote_mta: 'mx.Example.ORG',
        reporting_mta: 'mx.example.net',
        arrival_date: '2026-11-10T09:59:58.000Z',
      },
      { kind: 'bounce', recipient: 'bob@example.org', status: '5.2.2', reply_code: '552' },
    ]);
    expect(parsed.report).toMatchObject({
      message_id: '<report-1@mx.example.net>',
      from: 'MAILER-DAEMON@mx.example.net',
      subject: 'Undelivered Mail Returned to Sender',
      delivered_to: ['bounces+tok3n@sender.example.com'],
    });
    expect(parsed.original).toMatchObject({
      message_id: '<original-1@sender.example.com>',
      return_path: 'bounces+tok3n@sender.example.com',
      from: 'news@sender.example.com',
      to: ['alice@example.org'],
      subject: 'Weekly news',
    });
  });

  it('when a DSN says the MTA keeps trying (Action: delayed), then the record is a delay, not a bounce', async () => {
    const parsed = await parseMailMessage(
      dsn([
        {
          address: 'carol@example.org',
          action: 'delayed',
          status: '4.4.1',
          diagnostic: '421 4.4.1 Connection timed out',
        },
      ]),
    );
    expect(parsed.records).toMatchObject([
      { kind: 'delay', recipient: 'carol@example.org', status: '4.4.1', action: 'delayed' },
    ]);
  });

  it('when an ARF report arrives, then it gives a complaint with the feedback type, the user agent and the original', async () => {
    const parsed = await parseMailMessage(
      crlf([
        'From: Feedback Loop <fbl@isp.example>',
        'To: fbl@sender.example.com',
        'Subject: Abuse report',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="fb"',
        '',
        '--fb',
        'Content-Type: text/plain',
        '',
        'This is an email abuse report.',
        '--fb',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'User-Agent: ExampleFBL/1.0',
        'Version: 1',
        'Original-Mail-From: <bounces+x1@sender.example.com>',
        'Original-Rcpt-To: <dave@isp.example>',
        'Arrival-Date: Tue, 10 Nov 2026 08:00:00 +0000',
        '',
        '--fb',
        'Content-Type: message/rfc822',
        '',
        'Return-Path: <bounces+x1@sender.example.com>',
        'From: Shop <shop@sender.example.com>',
        'To: dave@isp.example',
        'Message-ID: <offer-7@sender.example.com>',
        'Subject: Offer',
        '',
        'Buy now',
        '--fb--',
        '',
      ]),
    );
    expect(parsed.format).toBe('arf');
    expect(parsed.records).toMatchObject([
      { kind: 'complaint', recipient: 'dave@isp.example', feedback_type: 'abuse', user_agent: 'ExampleFBL/1.0' },
    ]);
    expect(parsed.original).toMatchObject({
      message_id: '<offer-7@sender.example.com>',
      return_path: 'bounces+x1@sender.example.com',
    });
  });

  it('when an RFC 3834 auto-reply arrives, then it gives one auto_reply record for its sender', async () => {
    const parsed = await parseMailMessage(
      crlf([
        'From: Erin <erin@example.org>',
        'To: news@sender.example.com',
        'Subject: Out of office: Weekly news',
        'Auto-Submitted: auto-replied',
        '',
        'I am away until Monday.',
        '',
      ]),
    );
    expect(parsed.records).toMatchObject([{ kind: 'auto_reply', recipient: 'erin@example.org' }]);
  });

  it('when a person writes, even about an undelivered mail, then it gives one not_a_report record and no bounce', async () => {
    const parsed = await parseMailMessage(
      crlf([
        'From: Frank <frank@example.org>',
        'To: support@sender.example.com',
        'Subject: Re: Undelivered Mail Returned to Sender',
        '',
        'Hi, my colleague grace@example.org says your mail could not be delivered to her. 550 5.1.1?',
        '',
      ]),
    );
    expect(parsed.records).toEqual([
      {
        kind: 'not_a_report',
        recipient: null,
        status: null,
        reply_code: null,
        diagnostic: null,
        action: null,
        remote_mta: null,
        reporting_mta: null,
        arrival_date: null,
        feedback_type: null,
        user_agent: null,
      },
    ]);
  });

  it('when an MTA writes no DSN (qmail), then the recipient and the code are read from its sentences', async () => {
    const parsed = await parseMailMessage(
      crlf([
        'Return-Path: <>',
        'From: MAILER-DAEMON@mx.example.net',
        'To: news@sender.example.com',
        'Subject: failure notice',
        '',
        'Hi. This is the qmail-send program at mx.example.net.',
        "I'm afraid I wasn't able to deliver your message to the following addresses.",
        "This is a permanent error; I've given up. Sorry it didn't work out.",
        '',
        '<heidi@example.org>:',
        '192.0.2.1 does not like recipient.',
        'Remote host said: 550 5.1.1 <heidi@example.org>: Recipient address rejected: User unknown',
        'Giving up on 192.0.2.1.',
        '',
        '--- Below this line is a copy of the message.',
        '',
        'Return-Path: <news@sender.example.com>',
        'Received: (qmail 1 invoked by uid 0); 10 Nov 2026 10:00:00 -0000',
        'To: heidi@example.org',
        '',
      ]),
    );
    expect(parsed.format).toBe('qmail');
    expect(parsed.records).toMatchObject([
      { kind: 'bounce', recipient: 'heidi@example.org', status: '5.1.1', reply_code: '550' },
    ]);
    expect(parsed.original?.to).toEqual(['heidi@example.org']);
  });

  it("when a notice quotes the SMTP session, then the diagnostic is the server's refusal, not the commands and their addresses", async () => {
    const parsed = await parseMailMessage(
      dsn([
        {
          address: 'ivan@example.org',
          action: 'failed',
          status: '5.0.0',
          diagnostic:
            'Out: 220 mx.example.org ESMTP In: MAIL FROM:<news@sender.example.com> Out: 250 2.1.0 Ok In: RCPT TO:<ivan@example.org> Out: 250 2.1.5 Ok In: DATA Out: 451 4.3.0 Error: queue file write error In: QUIT Out: 221 2.0.0 Bye',
        },
        {
          address: 'judy@example.org',
          action: 'failed',
          status: '5.0.0',
          diagnostic:
            'While talking to mx.example.org: >>> RCPT To:<judy@example.org> <<< 550 5.1.1 <judy@example.org>... User unknown',
        },
      ]),
    );
    expect(parsed.records).toMatchObject([
      { recipient: 'ivan@example.org', diagnostic: '451 4.3.0 Error: queue file write error', reply_code: '451' },
      {
        recipient: 'judy@example.org',
        diagnostic: 'While talking to mx.example.org: 550 5.1.1 <judy@example.org>... User unknown',
        reply_code: '550',
      },
    ]);
  });

  it('when a notice holds MIME parts its header never declared, then their boundaries and headers are no diagnostic', async () => {
    const parsed = await parseMailMessage(
      crlf([
        'From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.net>',
        'To: news@sender.example.com',
        'Subject: Returned mail: see transcript for details',
        '',
        'This is a MIME-encapsulated message',
        '',
        '--b2/mx.example.net',
        '',
        '   ----- Transcript of session follows -----',
        'kate... Deferred: Connection refused by mx.example.org',
        'Message could not be delivered for 5 days',
        '',
        '--b2/mx.example.net',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.net',
        '',
        'Final-Recipient: RFC822; kate@example.org',
        'Action: failed',
        'Status: 4.4.7',
        '',
        '--b2/mx.example.net--',
        '',
      ]),
    );
    expect(parsed.records).toHaveLength(1);
    expect(parsed.records[0]).toMatchObject({ kind: 'bounce', recipient: 'kate@example.org', status: '4.4.7' });
    expect(parsed.records[0]?.diagnostic ?? '').not.toMatch(/b2\/mx|Content-Type/);
  });

  it('when the parts come quoted-printable, base64 and 8-bit, then each is read as the bytes it encodes', async () => {
    const deliveryStatus = Buffer.from(
      [
        'Reporting-MTA: dns; mx.example.de',
        '',
        'Final-Recipient: rfc822; anna@example.de',
        'Action: failed',
        'Status: 5.1.1',
        'Diagnostic-Code: X-Unix; 255',
        '',
      ].join('\r\n'),
    )
      .toString('base64')
      .replace(/.{60}/g, '$&\r\n');
    const parsed = await parseMailMessage(
      crlf([
        'Return-Path: <>',
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.de>',
        'To: bounces+tok3n@sender.example.com',
        'Subject: Unzustellbar',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b2"',
        '',
        '--b2',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Die Nachricht konnte nicht zugestellt werden.',
        '',
        '<anna@example.de>: 550 5.1.1 Empf=C3=A4nger unbekannt, bitte =C3=BCberpr=C3=BC=',
        'fen Sie die Adresse',
        '',
        '--b2',
        'Content-Type: message/delivery-status',
        'Content-Transfer-Encoding: base64',
        '',
        deliveryStatus,
        '--b2',
        'Content-Type: message/rfc822',
        'Content-Transfer-Encoding: 8bit',
        '',
        'Return-Path: <bounces+tok3n@sender.example.com>',
        'From: News <news@sender.example.com>',
        'To: anna@example.de',
        'Subject: Grüße aus Köln',
        'Message-ID: <original-2@sender.example.com>',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Hallo =C3=A4',
        '--b2--',
        '',
      ]),
    );
    expect(parsed.format).toBe('rfc3464');
    expect(parsed.records).toMatchObject([
      {
        kind: 'bounce',
        recipient: 'anna@example.de',
        status: '5.1.1',
        reply_code: '550',
        reporting_mta: 'mx.example.de',
      },
    ]);
    expect(parsed.records[0]?.diagnostic).toContain('550 5.1.1 Empfänger unbekannt, bitte überprüfen Sie die Adresse');
    expect(parsed.original).toMatchObject({
      message_id: '<original-2@sender.example.com>',
      to: ['anna@example.de'],
      subject: 'Grüße aus Köln',
    });
  });
});
