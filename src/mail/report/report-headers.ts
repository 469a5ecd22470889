import type { Email, Header } from 'postal-mime';
import { findAddresses, firstAddress } from './addresses.js';
import type { OriginalMessage, ReportHeaders } from './mail-record.js';

const DELIVERED_TO = new Set(['delivered-to', 'x-original-to', 'envelope-to', 'x-envelope-to']);

export function headerValue(headers: readonly Header[], name: string): string | null {
  for (const header of headers) if (header.key === name) return header.value.trim();
  return null;
}

function unique(addresses: Iterable<string>): string[] {
  return [...new Set(addresses)];
}

function addressesOf(headers: readonly Header[], names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const header of headers) {
    if (names.has(header.key)) for (const { address } of findAddresses(header.value)) found.push(address);
  }
  return found;
}

function dateOf(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value.replace(/\([^()]{0,200}\)/g, ' ').trim());
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export { dateOf as isoDate };

export function readReportHeaders(email: Email): ReportHeaders {
  const to = unique(addressesOf(email.headers, new Set(['to'])));
  return {
    message_id: email.messageId?.trim() || null,
    from: firstAddress(headerValue(email.headers, 'from')),
    to,
    subject: email.subject?.trim() || null,
    date: dateOf(headerValue(email.headers, 'date')),
    delivered_to: unique([...to, ...addressesOf(email.headers, DELIVERED_TO)]),
  };
}

export function readOriginalHeaders(email: Email): OriginalMessage {
  return {
    message_id: email.messageId?.trim() || null,
    return_path: firstAddress(headerValue(email.headers, 'return-path')),
    from: firstAddress(headerValue(email.headers, 'from')),
    to: unique(addressesOf(email.headers, new Set(['to']))),
    subject: email.subject?.trim() || null,
    headers: email.headers.map((header) => [header.originalKey, header.value.trim()]),
  };
}
