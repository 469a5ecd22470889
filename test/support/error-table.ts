import { ERROR_CODES, exampleMessage, type ErrorCode } from '../../src/error-codes.js';

const START = '<!-- error-table:start -->';
const END = '<!-- error-table:end -->';

/** docs/api.md's table of errors, written from `ERROR_CODES`, ordered by status. */
export function renderErrorTable(): string {
  const codes = (Object.keys(ERROR_CODES) as ErrorCode[]).sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
  const rows = codes.map(
    (code) => `| \`${code}\` | ${ERROR_CODES[code].status} | ${ERROR_CODES[code].when} | ${exampleMessage(code)} |`,
  );
  return [
    '| code | status | when | message (an example where it names the request) |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The table as it stands between the markers of a document, or null without them. */
export function errorTableIn(markdown: string): string | null {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start === -1 || end < start) return null;
  return markdown.slice(start + START.length, end).trim();
}

/** The document with the table between its markers written afresh. */
export function withErrorTable(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start === -1 || end < start) throw new Error(`the document has no ${START} … ${END} section`);
  return `${markdown.slice(0, start + START.length)}\n${renderErrorTable()}\n${markdown.slice(end)}`;
}
