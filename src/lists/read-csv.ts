import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { addressColumn, type CsvHeader } from './csv-header.js';
import type { ListEntry, ReadSummary } from './list-entry.js';

/** Longer than any real record: one this long means a quote was never closed. */
const MAX_RECORD_CHARS = 64 * 1024;

function lineBreaks(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) count += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return count;
}

const isBlank = (record: readonly string[]): boolean => record.every((cell) => cell.trim() === '');

function describeCsvError(error: CsvError): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted field starts on this line and is never closed';
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return `a record longer than ${MAX_RECORD_CHARS} characters starts on this line (a quote never closed?)`;
  }
  return error.message;
}

/**
 * Reads CSV in constant memory: quoted fields (with commas, quotes and line breaks in them), a
 * byte-order mark and CRLF, LF or CR line ends are handled; rows may have any number of cells.
 * The first non-blank record may be a header (see `addressColumn`), reported to `onHeader` and
 * not yielded. A CSV syntax error is yielded as the last entry: what follows it cannot be read.
 */
export async function* readCsvAddresses(
  input: Readable,
  onHeader?: (header: CsvHeader) => void,
): AsyncGenerator<ListEntry, ReadSummary, undefined> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    // A stray quote inside an unquoted cell is kept as a character instead of failing the file.
    relax_quotes: true,
    // Given, not detected: detection takes the first line's ending and would read a file that
    // mixes them as one huge record.
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    // Passed on to the stream: one destroyed by an error drops the records parsed before it.
    ...{ autoDestroy: false },
  });
  const forwardError = (error: Error): void => {
    parser.destroy(error);
  };
  input.on('error', forwardError);
  input.pipe(parser);
  // Counted here rather than taken from the parser, whose count is off after a CRLF in a quoted field.
  let line = 1;
  let column: number | undefined;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const start = line;
      line += 1 + lineBreaks(record);
      if (isBlank(record)) continue;
      if (column === undefined) {
        const header = addressColumn(record);
        column = header ?? 0;
        if (header !== null) {
          onHeader?.({ line: start, names: record, column });
          continue;
        }
      }
      yield { line: start, value: record[column] ?? '' };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    yield { line, problem: `${describeCsvError(error)}; the rest of the input was not read` };
    return { lines: line };
  } finally {
    input.off('error', forwardError);
    input.unpipe(parser);
    parser.destroy();
  }
  // `line` is the line the next record would start on; a final line break starts none.
  return { lines: line - 1 };
}
