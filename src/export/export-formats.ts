import { stringify } from 'csv-stringify';
import type { Transform } from 'node:stream';
import { toSuppressionResource, type Suppression } from '../suppressions/suppression.js';
import { FORMULA_ESCAPING } from './formula-cells.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// `scope` came after the others: it is last, so a reader that takes the columns by position still can.
export const CSV_COLUMNS = ['id', 'email', 'origin', 'source_id', 'created_at', 'scope'] as const;

type CsvRecord = Record<(typeof CSV_COLUMNS)[number], string>;

export interface CsvOptions {
  /** Cells a spreadsheet would run as a formula are prefixed with `'` and quoted. Default false. */
  escapeFormulas?: boolean;
}

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
 * records. By default values are written as stored: an address such as `=x@example.com` is data,
 * and a prefix would change it for every program that reads the file. `escapeFormulas` writes the
 * file for a spreadsheet instead (`formula-cells.ts`).
 */
export function csvStringifier({ escapeFormulas = false }: CsvOptions = {}): Transform {
  return stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    ...(escapeFormulas ? FORMULA_ESCAPING : {}),
  }).setEncoding('utf8');
}

/** One line of NDJSON: the API's Suppression resource, exactly as `GET /suppressions` lists it. */
export function toNdjsonLine(suppression: Suppression): string {
  return `${JSON.stringify(toSuppressionResource(suppression))}\n`;
}
