import { stringify } from 'csv-stringify';
import type { Transform } from 'node:stream';
import { toResource, type Suppression } from '../suppressions/suppression.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// `scope` came after the others: it is last, so a reader that takes the columns by position still can.
export const CSV_COLUMNS = ['id', 'email', 'origin', 'source_id', 'created_at', 'scope'] as const;

type CsvRecord = Record<(typeof CSV_COLUMNS)[number], string>;

/**
 * One CSV record: created_at in ISO 8601 with milliseconds (as the API shows it), no source and the
 * whole account's scope as empty.
 */
export function toCsvRecord(suppression: Suppression): CsvRecord {
  return {
    id: suppression.id,
    email: suppression.email,
    origin: suppression.origin,
    source_id: suppression.sourceId ?? '',
    created_at: suppression.createdAt.toISOString(),
    scope: suppression.scope ?? '',
  };
}

/**
 * CSV (RFC 4180 quoting, `\n` line ends) with a header line, printed even when there are no
 * records. Values are written as stored, with no spreadsheet-formula escaping: an address such as
 * `=x@example.com` is data, and a prefix would change it for every program that reads the file.
 */
export function csvStringifier(): Transform {
  return stringify({ header: true, columns: [...CSV_COLUMNS] }).setEncoding('utf8');
}

/** One line of NDJSON: the API's Suppression resource, exactly as `GET /suppressions` lists it. */
export function toNdjsonLine(suppression: Suppression): string {
  return `${JSON.stringify(toResource(suppression))}\n`;
}
