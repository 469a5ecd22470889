import { extname } from 'node:path';
import type { ListFormat } from '../contract/imports.js';

export { LIST_FORMATS, type ListFormat } from '../contract/imports.js';

const BY_EXTENSION: Readonly<Record<string, ListFormat>> = {
  '.csv': 'csv',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.txt': 'txt',
};

/**
 * The format given, else the one the file's extension names, else CSV: standard input and
 * unknown extensions are read as CSV, which also reads a plain list of one address per line.
 */
export function listFormatFor(file: string, given?: ListFormat): ListFormat {
  if (given) return given;
  if (file === '-') return 'csv';
  return BY_EXTENSION[extname(file).toLowerCase()] ?? 'csv';
}
