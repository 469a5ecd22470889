import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { CsvOptions, ExportFormat } from '../../src/export/export-formats.js';
import { writeExport } from '../../src/export/write-export.js';
import type { Suppression } from '../../src/suppressions/suppression.js';

function entry(overrides: Partial<Suppression> = {}): Suppression {
  return {
    id: '0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011',
    accountId: '0192d1a4-0000-7000-8000-000000000001',
    email: 'jane@example.com',
    origin: 'bounce',
    sourceId: '5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    scope: null,
    createdAt: new Date('2026-10-06T23:47:56.678Z'),
    ...overrides,
  };
}

async function exported(entries: readonly Suppression[], format: ExportFormat, csv?: CsvOptions): Promise<string> {
  const out = new PassThrough();
  const [written, result] = await Promise.all([text(out), writeExport(Readable.from(entries), out, format, csv)]);
  expect(result).toEqual({ exported: entries.length, complete: true });
  return written;
}

describe('export formats', () => {
  it('when a value holds a comma, a quote or a line break, then the CSV quotes it and doubles its quotes', async () => {
    // The email validator lets none of these through; the formatter must still never break a line.
    const csv = await exported(
      [
        entry({ email: '"a,b"@example.com', sourceId: null }),
        entry({ email: 'line\nbreak@example.com' }),
        entry({ email: "o'hara@example.com", scope: 'newsletter' }),
      ],
      'csv',
    );

    expect(csv).toBe(
      'id,email,origin,source_id,created_at,scope\n' +
        '0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,"""a,b""@example.com",bounce,,2026-10-06T23:47:56.678Z,\n' +
        '0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,"line\nbreak@example.com",bounce,5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,2026-10-06T23:47:56.678Z,\n' +
        "0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,o'hara@example.com,bounce,5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,2026-10-06T23:47:56.678Z,newsletter\n",
    );
  });

  it("when formulas are escaped, then every cell OWASP names gets a ' in front and is quoted, and no other cell changes", async () => {
    // The validators let only some of these through; the formatter must escape any of them.
    const dangerous = ['=cmd', '+1', '-1', '@sum', '\tx', '\rx', '\uFF1Dcmd', "'=already"];
    const csv = await exported(
      dangerous.map((start) => entry({ email: `${start}@example.com`, scope: 'a-b', sourceId: null })),
      'csv',
      { escapeFormulas: true },
    );

    expect(csv.split('\n').map((line) => line.split(',')[1])).toEqual([
      'email',
      `"'=cmd@example.com"`,
      `"'+1@example.com"`,
      `"'-1@example.com"`,
      `"'@sum@example.com"`,
      `"'\tx@example.com"`,
      `"'\rx@example.com"`,
      `"'\uFF1Dcmd@example.com"`,
      "'=already@example.com",
      undefined,
    ]);
    expect(csv.split('\n')[1]).toBe(
      `0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,"'=cmd@example.com",bounce,,2026-10-06T23:47:56.678Z,a-b`,
    );
  });

  it('when a cell to escape holds a quote or a comma, then its quotes are doubled inside the one pair of quotes', async () => {
    const csv = await exported([entry({ email: '=HYPERLINK("x","y")@example.com', scope: '-promo' })], 'csv', {
      escapeFormulas: true,
    });

    expect(csv.split('\n')[1]).toBe(
      '0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,"\'=HYPERLINK(""x"",""y"")@example.com",bounce,5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,2026-10-06T23:47:56.678Z,"\'-promo"',
    );
  });

  it('when formulas are not escaped, then a cell that begins with = is written exactly as stored', async () => {
    const csv = await exported([entry({ email: '=1+1@example.com', scope: '-promo' })], 'csv');

    expect(csv.split('\n')[1]).toBe(
      '0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011,=1+1@example.com,bounce,5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,2026-10-06T23:47:56.678Z,-promo',
    );
  });

  it('when exported as NDJSON, then each line is the Suppression resource, JSON-escaped', async () => {
    const ndjson = await exported([entry({ email: '"a,b"@example.com', origin: 'manual', sourceId: null })], 'ndjson');

    expect(ndjson).toBe(
      '{"object":"suppression","id":"0192d1a4-5e6f-7a01-8b02-0c0d0e0f1011","email":"\\"a,b\\"@example.com",' +
        '"origin":"manual","source_id":null,"scope":null,"created_at":"2026-10-06T23:47:56.678Z"}\n',
    );
  });

  it('when there are more lines than fit in one write, then they all arrive whole and in order', async () => {
    const many = Array.from({ length: 3_000 }, (_, index) => entry({ email: `user${index}@example.com` }));

    const csv = (await exported(many, 'csv')).split('\n');
    const ndjson = (await exported(many, 'ndjson')).split('\n');

    expect(csv).toHaveLength(3_002);
    expect(csv.slice(1, -1).map((line) => line.split(',')[1])).toEqual(many.map((one) => one.email));
    expect(ndjson.slice(0, -1).map((line) => JSON.parse(line).email)).toEqual(many.map((one) => one.email));
  });
});
