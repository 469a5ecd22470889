import PostalMime, { type Email, type Header } from 'postal-mime';
import { UnreadableMailMessageError } from './mail-errors.js';

/** How deep MIME parts may nest; real reports nest three or four levels. */
export const MAX_NESTING_DEPTH = 24;
/** The headers of all parts together, in bytes. */
export const MAX_HEADERS_SIZE = 1024 * 1024;

/**
 * How much of a message is handed to the MIME parser. A report puts what the readers need first
 * (its headers, the notice, the delivery-status or feedback part, the original's headers) and the
 * original's body last; the rest is left unread, which bounds the parse of any message, whatever
 * its lines, to a fixed cost.
 */
export const MIME_READ_BYTES = 256 * 1024;

/** The first `MIME_READ_BYTES` of the message, cut after a line end when it is longer. */
function readablePrefix(raw: Uint8Array): Uint8Array {
  if (raw.length <= MIME_READ_BYTES) return raw;
  const cut = raw.lastIndexOf(10, MIME_READ_BYTES - 1);
  return raw.subarray(0, cut > MIME_READ_BYTES / 2 ? cut + 1 : MIME_READ_BYTES);
}

/** A message as the report readers see it: its headers, its readable text and its report parts. */
export interface MimeMessage {
  email: Email;
  headers: Header[];
  /** The text/plain parts (or the HTML's text), the enclosed original message left out. */
  text: string;
  /** `message/delivery-status` and `message/global-delivery-status` bodies. */
  deliveryStatus: string[];
  /** `message/feedback-report` bodies. */
  feedbackReports: string[];
  /** The enclosed original: a `message/rfc822` part, or `text/rfc822-headers`. */
  enclosed: Uint8Array[];
}

const DELIVERY_STATUS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const ENCLOSED = new Set(['message/rfc822', 'message/global', 'text/rfc822-headers', 'message/global-headers']);
const utf8 = new TextDecoder('utf-8');
const iso2022jp = new TextDecoder('iso-2022-jp');

/**
 * A report part's text. Its fields are ASCII by the RFCs, but Japanese MTAs write the server's
 * sentence into Diagnostic-Code in ISO-2022-JP, whose escape sequences (ESC $ B, ESC $ @) name it.
 */
function partText(bytes: Uint8Array): string {
  for (let index = 0; index + 2 < bytes.length; index += 1) {
    if (
      bytes[index] === 0x1b &&
      bytes[index + 1] === 0x24 &&
      (bytes[index + 2] === 0x42 || bytes[index + 2] === 0x40)
    ) {
      return iso2022jp.decode(bytes);
    }
  }
  return utf8.decode(bytes);
}

function bytesOf(content: ArrayBuffer | Uint8Array | string): Uint8Array {
  if (typeof content === 'string') return new TextEncoder().encode(content);
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

async function parseMime(raw: Uint8Array): Promise<Email> {
  try {
    return await PostalMime.parse(raw, {
      forceRfc822Attachments: true,
      attachmentEncoding: 'arraybuffer',
      maxNestingDepth: MAX_NESTING_DEPTH,
      maxHeadersSize: MAX_HEADERS_SIZE,
    });
  } catch (error) {
    throw new UnreadableMailMessageError(error instanceof Error ? error.message : 'the MIME structure is broken', {
      cause: error,
    });
  }
}

/** Tags and entities out of an HTML body, for the reports that come only as HTML. */
function htmlText(html: string): string {
  return html
    .replace(/<(?:br|\/p|\/div|\/tr|\/li|\/h\d)[^<>]{0,200}>/gi, '\n')
    .replace(/<[^<>]{0,2000}>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

export async function readMime(message: Uint8Array): Promise<MimeMessage> {
  const raw = readablePrefix(message);
  const email = await parseMime(raw);
  const deliveryStatus: string[] = [];
  const feedbackReports: string[] = [];
  const enclosed: Uint8Array[] = [];
  // Text parts whose Content-Type is mangled (a parameter folded into the type) are read as text too.
  const misfiled: string[] = [];
  for (const part of email.attachments) {
    const type = part.mimeType.toLowerCase();
    if (DELIVERY_STATUS.has(type)) deliveryStatus.push(partText(bytesOf(part.content)));
    else if (type === 'message/feedback-report') feedbackReports.push(partText(bytesOf(part.content)));
    else if (ENCLOSED.has(type)) enclosed.push(bytesOf(part.content));
    else if (type.startsWith('text/plain') && part.filename === null && part.disposition !== 'attachment') {
      misfiled.push(utf8.decode(bytesOf(part.content)));
    }
  }
  let text = [...misfiled, email.text ?? (email.html ? htmlText(email.html) : '')].join('\n');
  // A multipart whose boundaries never occur (cut or mangled on the way) yields no part at all: its
  // body is then read as the plain text it is.
  if (text.trim() === '' && deliveryStatus.length + feedbackReports.length + enclosed.length === 0) {
    text = utf8.decode(raw.subarray(bodyStart(raw)));
  }
  return { email, headers: email.headers, text, deliveryStatus, feedbackReports, enclosed };
}

/** Where the body starts: after the first empty line, or at the end when there is none. */
function bodyStart(bytes: Uint8Array): number {
  for (let index = 0; index + 1 < bytes.length; index += 1) {
    if (bytes[index] !== 10) continue;
    if (bytes[index + 1] === 10) return index + 2;
    if (bytes[index + 1] === 13 && bytes[index + 2] === 10) return index + 3;
  }
  return bytes.length;
}

/** Only the header block of a message (up to its first empty line), parsed and decoded. */
export async function readHeaderBlock(raw: Uint8Array | string): Promise<Email> {
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
  return parseMime(bytes.subarray(0, bodyStart(bytes)));
}
