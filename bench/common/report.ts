import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A GitHub-flavoured markdown table; numbers are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const numeric = header.map((_, column) => rows.every((row) => typeof row[column] === 'number'));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => (numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (numeric[column] ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}

/** Writes a run's figures as pretty JSON, creating the (git-ignored) results folder if needed. */
export async function writeResults(path: string, results: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}

/** A rate rounded for reading (no false precision in the table). */
export const rate = (value: number): number => Math.round(value);
export const seconds = (ms: number): number => Math.round(ms) / 1000;
