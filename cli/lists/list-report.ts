import type { BatchTotals } from './batch-waiter.js';
import type { CsvHeader } from '../../src/lists/csv-header.js';
import type { InvalidLine, QueueSummary } from '../../src/lists/queue-list.js';

/** Values quoted as JSON strings, and cut short when long, so odd characters stay visible. */
function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}

/** How an invalid line is reported on stderr. */
export function describeInvalidLine(problem: InvalidLine): string {
  if (problem.value === undefined) return `line ${problem.line}: ${problem.reason}`;
  if (problem.value.trim() === '') return `line ${problem.line}: no address`;
  return `line ${problem.line}: ${shown(problem.value)} ${problem.reason}`;
}

export function describeHeader(header: CsvHeader): string {
  const name = header.names[header.column] ?? '';
  return `line ${header.line} is a header: reading addresses from column ${header.column + 1} (${shown(name.trim())})`;
}

export interface ListReportInput {
  operation: 'add' | 'remove';
  /** The account as the report names it, e.g. `"acme" (0190...)`. */
  account: string;
  summary: QueueSummary;
  /** With --wait: the jobs' counts. */
  totals: BatchTotals | null;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function rows(entries: readonly (readonly [string, number])[]): string[] {
  const width = Math.max(...entries.map(([label]) => label.length)) + 2;
  return entries.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`);
}

/** The report printed on stdout once the list is read (and, with --wait, its jobs finished). */
export function formatListReport({ operation, account, summary, totals }: ListReportInput): string {
  const target = operation === 'add' ? `into account ${account}` : `from account ${account}`;
  const what = operation === 'add' ? 'Import' : 'Removal';
  const lines: string[] = [];
  if (totals === null) {
    const queued =
      operation === 'add' ? plural(summary.queued, 'address', 'addresses') : plural(summary.queued, 'entry', 'entries');
    lines.push(
      summary.jobs === 0
        ? `Nothing queued ${target}.`
        : `${what} ${target}: queued ${queued} in ${plural(summary.jobs, 'job')}; ` +
            'the workers process them in the background (--wait waits for them and prints the totals).',
      ...rows([
        ['lines read', summary.lines],
        ['invalid lines', summary.invalid],
        ['queued', summary.queued],
        ['duplicates', summary.duplicates],
      ]),
    );
    return `${lines.join('\n')}\n`;
  }
  const failed = totals.failed.length;
  lines.push(`${what} ${target} finished: ${plural(totals.jobs, 'job')}${failed > 0 ? `, ${failed} failed` : ''}.`);
  lines.push(
    ...rows([
      ['lines read', summary.lines],
      ['invalid lines', summary.invalid],
      ['queued', summary.queued],
      ['added', totals.added],
      ['already present', totals.already_present],
      ['duplicates', summary.duplicates + totals.duplicates],
      ['removed', totals.removed],
      ['not found', totals.not_found],
      ...(totals.allowlisted > 0 ? [['allowlisted (not added)', totals.allowlisted] as const] : []),
      ...(totals.protected > 0 ? [['protected (complained)', totals.protected] as const] : []),
      ...(totals.invalid > 0 ? [['refused by the workers', totals.invalid] as const] : []),
      ['failed jobs', failed],
    ]),
  );
  for (const job of totals.failed) lines.push(`  job ${job.id}: ${job.reason.replace(/\s+/g, ' ').trim()}`);
  if (totals.protected > 0) {
    for (const entry of totals.protectedEntries) lines.push(`  protected: ${entry.email} (${entry.id})`);
    lines.push(
      `${plural(totals.protected, 'entry', 'entries')} a complaint put on the list ${totals.protected === 1 ? 'was' : 'were'} kept: run again with --force --reason "<why>" to remove ${totals.protected === 1 ? 'it' : 'them'}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** 1 when a line was invalid or a job failed (or the workers refused or protected an entry), else 0. */
export function listExitCode(summary: QueueSummary, totals: BatchTotals | null): 0 | 1 {
  const incomplete = totals !== null && (totals.failed.length > 0 || totals.invalid > 0 || totals.protected > 0);
  return summary.invalid > 0 || incomplete ? 1 : 0;
}
