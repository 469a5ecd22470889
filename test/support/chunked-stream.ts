import { Readable } from 'node:stream';

/** The text in small pieces that cut lines (and CRLF pairs) apart, as a pipe delivers it. */
export function streamOf(text: string, pieceSize = 7): Readable {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += pieceSize) pieces.push(text.slice(start, start + pieceSize));
  return Readable.from(pieces);
}
