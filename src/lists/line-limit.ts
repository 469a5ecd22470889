import { Transform } from 'node:stream';

/** Longer than any real line of a list: a line this long has no end in sight (no line breaks at all). */
export const MAX_LINE_BYTES = 64 * 1024;

/** A line grew past the limit without a break. */
export class LineTooLongError extends Error {
  override name = 'LineTooLongError';

  constructor(readonly limit: number) {
    super(`a line longer than ${limit} bytes`);
  }
}

function nextBreak(chunk: Buffer, from: number): number {
  const newline = chunk.indexOf(10, from);
  const carriageReturn = chunk.indexOf(13, from);
  if (newline === -1) return carriageReturn;
  if (carriageReturn === -1) return newline;
  return Math.min(newline, carriageReturn);
}

/**
 * Passes a list through unchanged, and fails with LineTooLongError once a line runs past `limit`
 * bytes: a reader that holds a line whole until its end then holds at most that much.
 */
export function limitLineLength(limit = MAX_LINE_BYTES): Transform {
  let run = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let position = 0; position < chunk.length;) {
        const found = nextBreak(chunk, position);
        run += (found === -1 ? chunk.length : found) - position;
        if (run > limit) return done(new LineTooLongError(limit));
        if (found === -1) break;
        run = 0;
        position = found + 1;
      }
      done(null, chunk);
    },
  });
}
