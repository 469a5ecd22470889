import { describe, expect, it } from 'vitest';
import { addressColumn, type CsvHeader } from '../../src/lists/csv-header.js';
import type { ListEntry, ReadSummary } from '../../src/lists/list-entry.js';
import { listFormatFor } from '../../src/lists/list-format.js';
import { readAddresses, type ReadAddressesOptions } from '../../src/lists/read-addresses.js';
import { streamOf } from '../support/chunked-stream.js';

async function read(text: string, options: ReadAddressesOptions, pieceSize?: number) {
  const headers: CsvHeader[] = [];
  const entries: ListEntry[] = [];
  const reader = readAddresses(streamOf(text, pieceSize), { ...options, onHeader: (header) => headers.push(header) });
  let next: IteratorResult<ListEntry, ReadSummary>;
  while (!(next = await reader.next()).done) entries.push(next.value);
  return { entries, headers, summary: next.value };
}

describe('the address column of a CSV header', () => {
  it.each([
    ['SendGrid', ['email', 'created'], 0],
    ['Mailgun', ['address', 'code', 'error', 'created_at'], 0],
    ['Postmark', ['ID', 'Type', 'Email', 'BouncedAt'], 2],
    ['Amazon SES', ['EmailAddress', 'Reason', 'LastUpdateTime'], 0],
    ['Mailchimp', ['First Name', 'Last Name', 'Email Address', 'MEMBER_RATING'], 2],
    ['an E-Mail column', ['Name', ' E-Mail '], 1],
    ['a recipient column', ['sent_at', 'Recipient'], 1],
    ['an email column beside a postal address', ['Name', 'Address', 'EMAIL'], 2],
    ['a column whose name contains email', ['id', 'user_email_addr'], 1],
    ['no column it knows', ['address_line_1', 'reason'], 0],
  ])('when the header is like %s, then the address column is found', (_, header, column) => {
    expect(addressColumn(header)).toBe(column);
  });

  it('when a cell holds an @, then the record is data, not a header', () => {
    expect(addressColumn(['jane@example.com', 'email'])).toBeNull();
    expect(addressColumn(['Jane', 'not-an-address', 'x@y'])).toBeNull();
  });
});

describe('reading CSV', () => {
  it('when the header names an Email column that is not first, then that column is read and lines count from 1', async () => {
    const csv = [
      '\uFEFFName,Note,Email', // 1 header (after a byte-order mark)
      '"Doe, Jane","says ""hi""",Jane@Example.com', // 2
      '', // 3 blank
      'Bob,"two', // 4 a quoted line break...
      'lines",bob@example.com', // 5 ...ends here
      ' , , ', // 6 blank cells only
      'Short', // 7 no Email cell
      'Eve,x,eve@example.com', // 8
    ].join('\r\n');

    const { entries, headers, summary } = await read(`${csv}\r\n`, { format: 'csv' });

    expect(headers).toEqual([{ line: 1, names: ['Name', 'Note', 'Email'], column: 2 }]);
    expect(entries).toEqual([
      { line: 2, value: 'Jane@Example.com' },
      { line: 4, value: 'bob@example.com' },
      { line: 7, value: '' },
      { line: 8, value: 'eve@example.com' },
    ]);
    expect(summary).toEqual({ lines: 8 });
  });

  it('when there is no header, then the first column is read and nothing is taken as a header', async () => {
    const { entries, headers, summary } = await read('a@example.com,2024-01-01\nnot-an-address,x\n\nb@example.com', {
      format: 'csv',
    });

    expect(headers).toEqual([]);
    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 2, value: 'not-an-address' },
      { line: 4, value: 'b@example.com' },
    ]);
    expect(summary).toEqual({ lines: 4 });
  });

  it('when line ends are mixed (CRLF, LF, CR), then each is one line', async () => {
    const { entries } = await read(
      'email\r\na@example.com\nb@example.com\rc@example.com\r\n"d\r\n@x",1\ne@example.com',
      { format: 'csv' },
      1,
    );

    expect(entries.map((entry) => entry.line)).toEqual([2, 3, 4, 5, 7]);
  });

  it('when a quote is stray inside a cell, then it is kept as a character', async () => {
    const { entries } = await read('ab"c@example.com,1\nd@example.com', { format: 'csv' });

    expect(entries).toEqual([
      { line: 1, value: 'ab"c@example.com' },
      { line: 2, value: 'd@example.com' },
    ]);
  });

  it('when a quoted field is never closed, then the lines before it are read and the broken one is reported by number', async () => {
    const { entries, summary } = await read('a@example.com\nb@example.com\n"c@example.com,1\nd@example.com\n', {
      format: 'csv',
    });

    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 2, value: 'b@example.com' },
      {
        line: 3,
        problem: 'a quoted field starts on this line and is never closed; the rest of the input was not read',
      },
    ]);
    expect(summary).toEqual({ lines: 3 });
  });

  it('when a record is absurdly long (an unclosed quote in a big file), then reading stops there instead of holding the rest', async () => {
    const { entries } = await read(`a@example.com\n"${'x'.repeat(70_000)}\nb@example.com\n`, { format: 'csv' }, 4096);

    expect(entries[0]).toEqual({ line: 1, value: 'a@example.com' });
    expect(entries[1]).toMatchObject({
      line: 2,
      problem: expect.stringMatching(/^a record longer than 65536 characters starts on this line/),
    });
    expect(entries).toHaveLength(2);
  });

  it('when the input is empty, then nothing is read', async () => {
    expect(await read('', { format: 'csv' })).toEqual({ entries: [], headers: [], summary: { lines: 0 } });
  });
});

describe('reading NDJSON', () => {
  const ndjson = [
    '\uFEFF"a@example.com"', // 1
    '{"email": "B@example.com", "reason": "bounce"}', // 2
    '', // 3
    '{"id": "0190e0b0-0000-7000-8000-000000000001", "email": "c@example.com"}', // 4
    '{"emial": "typo@example.com"}', // 5
    '{not json', // 6
    '42', // 7
  ].join('\n');

  it('when lines are strings, objects and junk, then each gives its address or the reason it has none', async () => {
    const { entries, summary } = await read(ndjson, { format: 'ndjson' });

    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 2, value: 'B@example.com' },
      { line: 4, value: 'c@example.com' },
      { line: 5, problem: 'expected a JSON string or an object with an "email" string' },
      { line: 6, problem: expect.stringMatching(/^malformed JSON: /) },
      { line: 7, problem: 'expected a JSON string or an object with an "email" string' },
    ]);
    expect(summary).toEqual({ lines: 7 });
  });

  it('when ids are wanted (removal), then an id field wins over an email beside it', async () => {
    const { entries } = await read(ndjson, { format: 'ndjson', ids: true });

    expect(entries[2]).toEqual({ line: 4, value: '0190e0b0-0000-7000-8000-000000000001', field: 'id' });
    expect(entries[3]).toEqual({
      line: 5,
      problem: 'expected a JSON string or an object with an "email" or "id" string',
    });
  });
});

describe('reading plain text', () => {
  it('when lines hold addresses, commas and blanks, then each non-blank line is one value as written', async () => {
    const { entries, summary } = await read(
      'a@example.com\r\n\r\n  B@Example.com  \r\nodd,"line"\r\n',
      { format: 'txt' },
      3,
    );

    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 3, value: '  B@Example.com  ' },
      { line: 4, value: 'odd,"line"' },
    ]);
    expect(summary).toEqual({ lines: 4 });
  });

  it('when a line runs past 64 KiB without a break, then the lines before it are read and it is reported by number', async () => {
    const { entries, summary } = await read(
      `a@example.com\n${'x'.repeat(70_000)}\nb@example.com\n`,
      { format: 'txt' },
      4096,
    );

    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 2, problem: 'a line longer than 65536 bytes starts on this line; the rest of the input was not read' },
    ]);
    expect(summary).toEqual({ lines: 2 });
  });

  it('when NDJSON lines are long but end, then each is read', async () => {
    const padding = 'p'.repeat(60_000);
    const { entries } = await read(
      `${JSON.stringify({ email: 'a@example.com', padding })}\r\n${JSON.stringify({ email: 'b@example.com', padding })}\r`,
      { format: 'ndjson' },
      7000,
    );

    expect(entries).toEqual([
      { line: 1, value: 'a@example.com' },
      { line: 2, value: 'b@example.com' },
    ]);
  });
});

describe('the format of a list', () => {
  it.each([
    ['list.csv', undefined, 'csv'],
    ['LIST.CSV', undefined, 'csv'],
    ['events.ndjson', undefined, 'ndjson'],
    ['events.jsonl', undefined, 'ndjson'],
    ['list.txt', undefined, 'txt'],
    ['export.tsv', undefined, 'csv'],
    ['-', undefined, 'csv'],
    ['list.csv', 'txt', 'txt'],
    ['-', 'ndjson', 'ndjson'],
  ] as const)('when the file is %s and --format is %s, then it is read as %s', (file, given, format) => {
    expect(listFormatFor(file, given)).toBe(format);
  });
});
