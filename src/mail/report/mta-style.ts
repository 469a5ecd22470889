import type { Header } from 'postal-mime';
import { headerValue } from './report-headers.js';

/**
 * The MTA or mailbox provider whose wording a notice has, by the sentences and headers each is
 * known to write; `text` when none is recognized. Only names the format, decides nothing.
 */
const STYLES: readonly (readonly [string, RegExp])[] = [
  ['qmail', /This is the qmail-send program|qmail-send|qmail-remote/],
  ['dragonfly', /This is the DragonFly Mail Agent/],
  ['opensmtpd', /This is the MAILER-DAEMON, please DO NOT REPLY|OpenSMTPD/],
  ['postfix', /This is the mail system at host|\(Postfix\)|X-Postfix-Queue-ID/i],
  ['exim', /This message was created automatically by mail delivery software|Exim/],
  [
    'sendmail',
    /The following addresses had permanent fatal errors|Transcript of session follows|----- The following address/,
  ],
  ['gmail', /Delivery to the following recipient(?:s)? failed|Google tried to deliver your message|googlemail\.com/],
  ['googlegroups', /Google Groups|googlegroups\.com/],
  ['yahoo', /Sorry, we were unable to deliver your message|yahoo\.com/i],
  [
    'exchange',
    /Delivery has failed to these recipients|did not reach the following recipient|Microsoft Exchange|X-MS-Exchange/i,
  ],
  ['outlook', /hotmail\.com|outlook\.com|live\.com/i],
  ['courier', /Courier mail server/],
  ['domino', /Lotus Domino|Notes/],
  ['amazonses', /amazonses\.com|X-SES-Outgoing/i],
  ['amazonworkmail', /awsapps\.com|Amazon WorkMail/i],
  ['sendgrid', /sendgrid/i],
  ['mailgun', /mailgun/i],
  ['ezweb', /ezweb\.ne\.jp|au\.com/],
  ['docomo', /docomo\.ne\.jp/],
  ['kddi', /kddi/i],
];

export function mtaStyle(headers: readonly Header[], text: string): string {
  const sample = `${headerValue(headers, 'from') ?? ''}\n${headers
    .filter((header) => header.key.startsWith('x-') || header.key === 'received' || header.key === 'message-id')
    .map((header) => `${header.originalKey}: ${header.value}`)
    .join('\n')
    .slice(0, 8000)}\n${text.slice(0, 8000)}`;
  for (const [style, pattern] of STYLES) if (pattern.test(sample)) return style;
  return 'text';
}
