import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { CsvHeader } from './csv-header.js';
import type { ListEntry, ReadSummary } from './list-entry.js';
import type { ListFormat } from './list-format.js';
import { limitLineLength, LineTooLongError } from './line-limit.js';
import { readCsvAddresses } from './read-csv.js';

export interface ReadAddressesOptions {
  format: ListFormat;
  /** Take the `id` field of NDJSON objects too (removal by id); otherwise only `email`. */
  ids?: boolean;
  /** Told when the first CSV record is taken as a header. */
  onHeader?: (header: CsvHeader) => void;
}

function ndjsonEntry(text: string, line: number, ids: boolean): ListEntry {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { line, problem: `malformed JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof data === 'string') return { line, value: data };
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const fields = data as Record<string, unknown>;
    // An id names one entry exactly, so it wins over an email beside it.
    if (ids && typeof fields['id'] === 'string') return { line, value: fields['id'], field: 'id' };
    if (typeof fields['email'] === 'string') return { line, value: fields['email'] };
  }
  return { line, problem: `expected a JSON string or an object with an "email"${ids ? ' or "id"' : ''} string` };
}

/** NDJSON or plain text, a line at a time; a line past MAX_LINE_BYTES ends the reading, reported. */
async function* readLines(
  input: Readable,
  format: 'ndjson' | 'txt',
  ids: boolean,
): AsyncGenerator<ListEntry, ReadSummary, undefined> {
  const limited = limitLineLength();
  const forwardError = (error: Error): void => {
    limited.destroy(error);
  };
  input.on('error', forwardError);
  input.pipe(limited);
  const lines = createInterface({ input: limited, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of lines) {
      line += 1;
      // A byte-order mark some editors put at the start of a file is not part of the first line.
      const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() === '') continue;
      yield format === 'txt' ? { line, value: text } : ndjsonEntry(text, line, ids);
    }
  } catch (error) {
    if (!(error instanceof LineTooLongError)) throw error;
    yield { line: line + 1, problem: `${error.message} starts on this line; the rest of the input was not read` };
    return { lines: line + 1 };
  } finally {
    lines.close();
    input.off('error', forwardError);
    input.unpipe(limited);
    limited.destroy();
  }
  return { lines: line };
}

function throwIfFailed(input: Readable): void {
  const failure: unknown = input.errored;
  if (failure === null || failure === undefined) return;
  throw failure instanceof Error ? failure : new Error('the input failed');
}

/**
 * Streams the addresses of a list, in constant memory whatever its size, each with the line it
 * is on (from 1); blank lines are skipped. CSV: the address column of a header, else the first
 * column. NDJSON: a JSON string, or an object's `email` (or, with `ids`, `id`) field. Text: one
 * address per line. Values are as read: normalising and validating them is the caller's work.
 */
export async function* readAddresses(
  input: Readable,
  options: ReadAddressesOptions,
): AsyncGenerator<ListEntry, ReadSummary, undefined> {
  // An input that failed before it was read, or while readline read it (readline takes an input
  // that ends in an error for one that ended), must not pass for a whole list.
  throwIfFailed(input);
  const summary =
    options.format === 'csv'
      ? yield* readCsvAddresses(input, options.onHeader)
      : yield* readLines(input, options.format, options.ids ?? false);
  throwIfFailed(input);
  return summary;
}
