/** One message of an archive: its bytes, or only its size when it is larger than the limit. */
export type ArchivedMessage = { raw: Buffer; size: number } | { raw: null; size: number };

const FROM_LINE = Buffer.from('From ');
const QUOTED_FROM = /^>+From /;

function isBlank(line: Buffer): boolean {
  return line.equals(Buffer.from('\n')) || line.equals(Buffer.from('\r\n'));
}

/** The lines of a stream of chunks, each with its line ending (the last maybe without one). */
async function* lines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let rest = Buffer.alloc(0);
  for await (const chunk of chunks) {
    let buffer = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    let end = buffer.indexOf(0x0a);
    while (end !== -1) {
      yield buffer.subarray(0, end + 1);
      buffer = buffer.subarray(end + 1);
      end = buffer.indexOf(0x0a);
    }
    rest = Buffer.from(buffer);
  }
  if (rest.length > 0) yield rest;
}

/**
 * The messages of an mbox archive (RFC 4155), read as mboxrd: a message starts after a `From `
 * line at the start of the archive or after a blank line, the blank line before it belongs to the
 * archive and not to the message, and one `>` is taken off each `>From ` line (`>>From ` becomes
 * `>From `). Line endings are kept as the archive has them. A message larger than `maxBytes` is
 * not kept in memory: only its size is given.
 */
export async function* mboxMessages(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<ArchivedMessage> {
  let parts: Buffer[] | null = null;
  let size = 0;
  let started = false;
  // A blank line is held back until the next line shows whether it ends the message.
  let heldBlank: Buffer | null = null;

  const add = (line: Buffer): void => {
    size += line.length;
    if (parts !== null && size <= maxBytes) parts.push(line);
    else parts = null;
  };
  const finish = (): ArchivedMessage => (parts === null ? { raw: null, size } : { raw: Buffer.concat(parts), size });

  let previousBlank = true;
  for await (const line of lines(chunks)) {
    const separator = previousBlank && line.subarray(0, FROM_LINE.length).equals(FROM_LINE);
    if (separator) {
      if (started) yield finish();
      started = true;
      parts = [];
      size = 0;
      heldBlank = null;
      previousBlank = false;
      continue;
    }
    previousBlank = isBlank(line);
    // Text before the first `From ` line is no message's.
    if (!started) continue;
    if (heldBlank !== null) {
      add(heldBlank);
      heldBlank = null;
    }
    if (previousBlank) {
      heldBlank = line;
      continue;
    }
    const text = line.subarray(0, Math.min(line.length, 64)).toString('latin1');
    add(QUOTED_FROM.test(text) ? line.subarray(1) : line);
  }
  if (started) yield finish();
}
