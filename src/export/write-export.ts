import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Suppression } from '../suppressions/suppression.js';
import { csvStringifier, toCsvRecord, toNdjsonLine, type CsvOptions, type ExportFormat } from './export-formats.js';

export interface ExportResult {
  /** Entries read; when the export is not complete, how far it got. */
  exported: number;
  /** False when the destination closed before the end, as a pipe does when its reader (`head`) stops. */
  complete: boolean;
}

// A write per line costs a system call per line on stdout; 64 KiB pieces make a million-line
// export about a third faster, and hold no more than that.
const PIECE_CHARS = 64 * 1024;

/** Joins small strings into pieces of about PIECE_CHARS, in order. */
async function* inPieces(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let parts: string[] = [];
  let size = 0;
  for await (const line of lines) {
    parts.push(line);
    size += line.length;
    if (size >= PIECE_CHARS) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join('');
}

// What a pipeline fails with when its destination goes away before the end: a pipe whose reader
// closed, a stream destroyed while it was written, and the abort of the stages between.
const CLOSED_DESTINATION_CODES = new Set(['EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ABORT_ERR']);

function closedDestination(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLOSED_DESTINATION_CODES.has(code);
}

/**
 * Writes the entries to `destination` as CSV (with `csv`'s options) or NDJSON, and ends it.
 * Backpressure is kept throughout: the next entry is asked for only when the destination has taken
 * the last ones, so memory stays constant however many entries there are and however slow the
 * reader is.
 *
 * When the destination closes early the result says how far it got; reading the entries failing
 * is thrown, and so is anything else. Either way the entries' iterator has been returned (a cursor
 * has given its connection back) by the time this settles.
 */
export async function writeExport(
  entries: AsyncIterable<Suppression>,
  destination: Writable,
  format: ExportFormat,
  csv: CsvOptions = {},
): Promise<ExportResult> {
  const iterator = entries[Symbol.asyncIterator]();
  let exported = 0;
  let readFailure: { error: unknown } | undefined;
  async function* counted<T>(as: (entry: Suppression) => T): AsyncGenerator<T> {
    for (;;) {
      let step: IteratorResult<Suppression>;
      try {
        step = await iterator.next();
      } catch (error) {
        readFailure = { error };
        throw error;
      }
      if (step.done) return;
      exported += 1;
      yield as(step.value);
    }
  }
  try {
    if (format === 'csv') await pipeline(counted(toCsvRecord), csvStringifier(csv), inPieces, destination);
    else await pipeline(counted(toNdjsonLine), inPieces, destination);
  } catch (error) {
    // A database failure is the story even when the pipeline reports its stages' aborts instead.
    if (readFailure) throw readFailure.error;
    if (closedDestination(error)) return { exported, complete: false };
    throw error;
  } finally {
    // The pipeline stops reading without waiting for the entries to clean up; this waits.
    await iterator.return?.();
  }
  return { exported, complete: true };
}
