import type { ExportFormat } from '../../src/export/export-formats.js';
import { writeExport, type ExportResult } from '../../src/export/write-export.js';
import type { Database } from '../../src/db/database.js';
import { streamSuppressions, type ExportQuery } from '../../src/export/suppression-export.js';
import { textCollector } from './text-collector.js';

/** What `export --account <a> [--origin o] --format f` prints, and its summary. */
export async function exportText(
  db: Database,
  accountId: string,
  format: ExportFormat,
  query: Partial<ExportQuery> = {},
): Promise<{ text: string; result: ExportResult }> {
  const out = textCollector();
  const result = await writeExport(streamSuppressions(db, { accountId, ...query }), out.stream, format);
  return { text: out.text(), result };
}
