import { findAddresses } from './addresses.js';
import { MAX_DIAGNOSTIC_LENGTH, MAX_RECORDS } from './mail-record.js';
import { quotedOriginalStart } from './quoted-original.js';
import { hasCode } from './smtp-codes.js';

/** A recipient the notice names, with the lines that explain its failure. */
export interface NoticeEntry {
  recipient: string;
  diagnostic: string;
}

// Words that make an address on a line the subject of the failure, in the languages of the corpus'
// MTAs. Linear: one alternation of fixed words.
const RECIPIENT_WORDS =
  /recipient|address|adresse|destinat|empf[aä]nger|rcpt to|delivering your mail to|delivery to|deliver to|could not be delivered to|following user|mailbox|user|宛先|あて先|送信先/i;
const DAEMON_LOCAL_PART = /^(?:mailer-daemon|mail-daemon|mailerdaemon|postmaster|post_master|mdaemon|mail\.daemon)$/i;

export function isDaemonAddress(address: string): boolean {
  return DAEMON_LOCAL_PART.test(address.slice(0, address.lastIndexOf('@')));
}

interface Mention {
  recipient: string;
  how: 'first' | 'named';
  line: number;
  /** Where the address starts and ends on its line. */
  from: number;
  column: number;
}

const OPENERS = new Set([' ', '\t', '<', '"', "'", '(', ':', '*', '-']);

/** The text before an address without the brackets, quotes and blanks that open it. */
function trimLeading(text: string): string {
  let end = text.length;
  while (end > 0 && OPENERS.has(text[end - 1] as string)) end -= 1;
  return text.slice(0, end).trim();
}

const SENDER_LABEL = /(?:^|[^a-z])(?:from|sender|reply-to|return-path|envelope-from|mail from|von|de)\s*:?\s*<?$/i;

/**
 * How the line puts the address forward: `first` on the line (a notice's list of recipients),
 * `named` after a colon, a preposition or in angle brackets, or beside a word for a recipient;
 * null when the line only mentions it, or names it as the sender.
 */
function presented(line: string, start: number, end: number, worded: boolean): 'first' | 'named' | null {
  const prefix = line.slice(Math.max(0, start - 40), start);
  const before = trimLeading(prefix);
  if (before === '' && start <= 40) return 'first';
  if (SENDER_LABEL.test(prefix)) return null;
  if (/(?:^|\s)(?:rcpt to|to|for|an|à)$/i.test(before) || prefix.trimEnd().endsWith(':')) return 'named';
  if (line[start - 1] === '<' && line[end] === '>') return 'named';
  return worded ? 'named' : null;
}

// The lines of MIME's own structure, a boundary delimiter (`--<boundary>`) and a part's header,
// which a notice whose message declares no multipart type shows as text: never a sentence of it.
const MIME_STRUCTURE = /^(?:--[\x21-\x7e]{1,70}|Content-(?:Type|Transfer-Encoding|Disposition|Description|ID):.*)$/i;

/** The notice's lines: the readable text up to where the quoted original starts. */
export function noticeLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return lines.slice(0, quotedOriginalStart(lines)).filter((line) => !MIME_STRUCTURE.test(line));
}

/**
 * The recipients a human-readable failure notice names, each with its explanation: the rest of the
 * line that names it and the lines after it, up to the next recipient, ending at the first empty
 * line once the lines carry an SMTP code (a notice often names the address alone and explains it
 * in the paragraph after).
 */
export function readNotice(lines: readonly string[], excluded: (address: string) => boolean): NoticeEntry[] {
  const mentions: Mention[] = [];
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    if (!line.includes('@')) return;
    const worded = RECIPIENT_WORDS.test(line);
    for (const found of findAddresses(line)) {
      const key = found.address.toLowerCase();
      const how = presented(line, found.start, found.end, worded);
      if (how === null || (how === 'named' && (excluded(found.address) || isDaemonAddress(found.address)))) continue;
      // A recipient named again on a later line (Sendmail's transcript after its list, Postfix's
      // answer folded onto the next line) is read again there: the server's own answer.
      if (seen.has(key) && mentions.at(-1)?.line === index) continue;
      if (mentions.length >= MAX_RECORDS) return;
      seen.add(key);
      mentions.push({ recipient: found.address, how, line: index, from: found.start, column: found.end });
    }
  });
  // A notice that lists its recipients one to a line names them nowhere else: an address only
  // named in a sentence beside such a list is a contact or the original's header, not a recipient.
  const listed = new Set(
    mentions.filter((mention) => mention.how === 'first').map((mention) => mention.recipient.toLowerCase()),
  );
  return read(
    listed.size > 0 ? mentions.filter((mention) => listed.has(mention.recipient.toLowerCase())) : mentions,
    lines,
  );
}

/**
 * The lines just above a mention, up to an empty line or the line of the mention before (a reason
 * some MTAs write first); across the empty line, a one-line heading (`** Address not found **`).
 */
function linesAbove(lines: readonly string[], line: number, floor: number): string[] {
  const above: string[] = [];
  let index = line - 1;
  for (; index > floor && index >= line - 5; index -= 1) {
    const text = (lines[index] as string).trim();
    if (text === '') break;
    above.unshift(text);
  }
  const heading = (lines[index - 1] ?? '').trim();
  const beforeHeading = (lines[index - 2] ?? '').trim();
  if (
    index - 1 > floor &&
    heading !== '' &&
    heading.length <= 60 &&
    beforeHeading === '' &&
    (lines[index] ?? '').trim() === ''
  ) {
    above.unshift(heading);
  }
  return above;
}

/** One entry per recipient: the explanations where it is named, joined in order. */
function read(mentions: readonly Mention[], lines: readonly string[]): NoticeEntry[] {
  const entries = new Map<string, NoticeEntry>();
  for (const block of blocks(mentions, lines)) {
    const key = block.recipient.toLowerCase();
    const entry = entries.get(key);
    if (!entry) entries.set(key, block);
    else if (entry.diagnostic.length < 2 * MAX_DIAGNOSTIC_LENGTH)
      entry.diagnostic = `${entry.diagnostic} ${block.diagnostic}`;
  }
  return [...entries.values()];
}

function blocks(mentions: readonly Mention[], lines: readonly string[]): NoticeEntry[] {
  return mentions.map((mention, position) => {
    const previous = mentions[position - 1];
    const next = mentions[position + 1];
    const stop = next && next.line > mention.line ? next.line : lines.length;
    const own = lines[mention.line] as string;
    if (next?.line === mention.line) {
      return { recipient: mention.recipient, diagnostic: own.slice(mention.column, next.column).trim() };
    }
    // The line that names the recipient, without the address: the words around it explain.
    const start = previous?.line === mention.line ? previous.column : 0;
    const named = `${trimLeading(own.slice(start, mention.from))} ${own.slice(mention.column).replace(/^[>)"']+/, '')}`;
    const collected = [...(start === 0 ? linesAbove(lines, mention.line, previous?.line ?? -1) : []), named.trim()];
    let coded = collected.some(hasCode);
    let length = collected.join(' ').length;
    for (let index = mention.line + 1; index < stop && length < 2 * MAX_DIAGNOSTIC_LENGTH; index += 1) {
      const line = (lines[index] as string).trim();
      if (line === '') {
        if (coded) break;
        continue;
      }
      collected.push(line);
      length += line.length + 1;
      coded ||= hasCode(line);
    }
    return { recipient: mention.recipient, diagnostic: collected.join(' ').trim() };
  });
}

/** The first paragraph of the notice that carries an SMTP code: its explanation when it names no recipient. */
export function codedParagraph(lines: readonly string[]): string | null {
  let paragraph: string[] = [];
  let coded = false;
  for (const line of [...lines, '']) {
    if (line.trim() !== '') {
      paragraph.push(line.trim());
      coded ||= hasCode(line);
      continue;
    }
    if (coded) return paragraph.join(' ');
    paragraph = [];
  }
  return null;
}

/** The last paragraph of the notice: where a notice that names no recipient says what failed. */
export function lastParagraph(lines: readonly string[]): string | null {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] as string).trim() === '') end -= 1;
  let start = end;
  while (start > 0 && (lines[start - 1] as string).trim() !== '') start -= 1;
  const paragraph = lines
    .slice(start, end)
    .map((line) => line.trim())
    .join(' ');
  return paragraph === '' ? null : paragraph;
}
