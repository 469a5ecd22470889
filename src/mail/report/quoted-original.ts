// A line that announces the quoted original: a ruler of dashes or the like around words that name
// it, or one of the sentences MTAs put before it. Linear: alternations of fixed words, bounded runs.
const RULER = /^\s*[-=*_>#[(|]{2}/;
const RULER_WORDS =
  /original|returned|undelivered|copy of|headers? of|below this line|message follows|message text|rejected message|message header|unsent message/i;
const SENTENCE_MARKER =
  /^\s*(?:original message follows|message headers follow|below this line is a copy of the message|below is a copy of the original message|the original message headers|original message header|original message|headers of the original message|the header of the original message is|included is a copy of the message header)\b.{0,40}$/i;
const HEADER_LINE =
  /^(?:received|return-path|message-id|dkim-signature|from|to|subject|date|mime-version|content-type|x-[a-z0-9-]{1,60}|reply-to|sender|delivered-to):/i;
const ANY_HEADER = /^[A-Za-z][A-Za-z0-9-]{0,60}:(?:[ \t]|\S)/;
// The machine-readable part of a DSN written into the text: it starts with these fields.
const DSN_FIELD = /^(?:reporting-mta|final-recipient|original-recipient|received-from-mta|arrival-date)[ \t]*:/i;

const STRONG_HEADER = /^(?:received|return-path|message-id|dkim-signature|mime-version|delivered-to):/i;

/**
 * Whether a quoted header block starts at the line: two header lines or more, one of them a
 * header a notice's own summary of the message never holds (Received, Return-Path, Message-ID,
 * ...). A notice's `To:`, `Subject:` and `Date:` summary is not one.
 */
function headerRun(lines: readonly string[], from: number): boolean {
  let fields = 0;
  let strong = false;
  for (let index = from; index < lines.length && index < from + 60; index += 1) {
    const line = lines[index] as string;
    if (line.startsWith(' ') || line.startsWith('\t')) continue;
    if (!ANY_HEADER.test(line)) break;
    fields += 1;
    strong ||= STRONG_HEADER.test(line);
  }
  return strong && fields >= 2;
}

/** Where the quoted original starts in the notice's lines, or the line count when none is quoted. */
export function quotedOriginalStart(lines: readonly string[]): number {
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (line.length < 200 && ((RULER.test(line) && RULER_WORDS.test(line)) || SENTENCE_MARKER.test(line))) return index;
    if (DSN_FIELD.test(line) || (HEADER_LINE.test(line) && headerRun(lines, index))) return index;
  }
  return lines.length;
}

/** The header block of the quoted original: its first run of header lines after the marker. */
export function quotedHeaderBlock(lines: readonly string[], from: number): string | null {
  let start = -1;
  for (let index = from; index < lines.length && index < from + 40; index += 1) {
    if (HEADER_LINE.test(lines[index] as string)) {
      start = index;
      break;
    }
  }
  if (start < 0) return null;
  let end = start;
  while (end < lines.length) {
    const line = lines[end] as string;
    if (line.trim() === '') break;
    if (!ANY_HEADER.test(line) && !line.startsWith(' ') && !line.startsWith('\t')) break;
    end += 1;
  }
  return `${lines.slice(start, end).join('\n')}\n\n`;
}
