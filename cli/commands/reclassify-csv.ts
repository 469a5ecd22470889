import { stringify } from 'csv-stringify';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReclassificationEntry } from '../../src/bounces/reclassification-entries.js';
import { FORMULA_ESCAPING } from '../../src/export/formula-cells.js';

/** The columns of a run's entries as CSV: the entry, the decision on its latest bounce, that bounce. */
export const ENTRY_CSV_COLUMNS = [
  'id',
  'email',
  'category',
  'reason',
  'rule',
  'bounces',
  'bounce_type',
  'bounce_sub_type',
  'bounce_status',
  'bounce_reply_code',
  'bounce_diagnostic',
  'bounce_provider',
  'bounce_remote_mta',
  'bounce_occurred_at',
] as const;

type EntryRecord = Record<(typeof ENTRY_CSV_COLUMNS)[number], string>;

/** One line: what is missing as empty, times in ISO 8601 with milliseconds, as the API shows them. */
function toEntryRecord(entry: ReclassificationEntry): EntryRecord {
  return {
    id: entry.suppression_id,
    email: entry.email,
    category: entry.category,
    reason: entry.reason,
    rule: entry.rule,
    bounces: String(entry.bounces),
    bounce_type: entry.bounce_type ?? '',
    bounce_sub_type: entry.bounce_sub_type ?? '',
    bounce_status: entry.bounce_status ?? '',
    bounce_reply_code: entry.bounce_reply_code ?? '',
    bounce_diagnostic: entry.bounce_diagnostic ?? '',
    bounce_provider: entry.bounce_provider ?? '',
    bounce_remote_mta: entry.bounce_remote_mta ?? '',
    bounce_occurred_at: entry.occurred_at?.toISOString() ?? '',
  };
}

/**
 * Writes a run's entries to `destination` as CSV (RFC 4180 quoting, a header line even when there
 * are none) and ends it, keeping backpressure, so a list of any length takes little memory.
 * `escapeFormulas` writes the file for a spreadsheet, as the export does (`formula-cells.ts`): a
 * diagnostic is a remote server's text, and may begin with `=`. Resolves to the entries written.
 */
export async function writeEntriesCsv(
  entries: AsyncIterable<ReclassificationEntry>,
  destination: Writable,
  { escapeFormulas = false }: { escapeFormulas?: boolean } = {},
): Promise<number> {
  let written = 0;
  async function* records(): AsyncGenerator<EntryRecord> {
    for await (const entry of entries) {
      written += 1;
      yield toEntryRecord(entry);
    }
  }
  const csv = stringify({ header: true, columns: [...ENTRY_CSV_COLUMNS], ...(escapeFormulas ? FORMULA_ESCAPING : {}) });
  await pipeline(records(), csv, destination);
  return written;
}
