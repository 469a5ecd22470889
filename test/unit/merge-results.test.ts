import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SuppressionCheckResult } from '../../src/client/check-result.js';
import { mergeCheckResults, sendableOf, splitIntoChunks, type ChunkResult } from '../../src/client/merge-results.js';
import { partitionEmails } from '../../src/domain/email-batch.js';
import type { SuppressionResource } from '../../src/contract/suppression.js';

function entry(email: string): SuppressionResource {
  return {
    object: 'suppression',
    id: `id-of-${email}`,
    email,
    origin: 'bounce',
    source_id: null,
    scope: null,
    created_at: '2025-01-01T00:00:00.000Z',
  };
}

/** What the API answers for `emails` in one request, when the addresses of `suppressed` are suppressed. */
function apiAnswer(emails: readonly string[], suppressed: ReadonlySet<string>): SuppressionCheckResult {
  const { valid, invalid } = partitionEmails(emails);
  return {
    object: 'suppression_check',
    checked: valid.length,
    suppressed: valid.filter((email) => suppressed.has(email)).map(entry),
    invalid: invalid.map(({ index, value, reason }) => ({ index, email: value, reason })),
  };
}

/** The input asked in chunks of `size`, each answered by the API on its own. */
function answeredInChunks(emails: readonly string[], size: number, suppressed: ReadonlySet<string>): ChunkResult[] {
  return splitIntoChunks(emails, size).map((chunk) => ({ ...chunk, result: apiAnswer(chunk.emails, suppressed) }));
}

describe('splitIntoChunks', () => {
  it('when 2,500 addresses are split by 1,000, then there are three chunks covering them in order', () => {
    const emails = Array.from({ length: 2500 }, (_, index) => `user${index}@example.com`);
    const chunks = splitIntoChunks(emails, 1000);

    expect(chunks.map(({ offset, emails: part }) => [offset, part.length])).toEqual([
      [0, 1000],
      [1000, 1000],
      [2000, 500],
    ]);
    expect(chunks.flatMap(({ emails: part }) => part)).toEqual(emails);
  });

  it('when there are exactly as many addresses as one chunk takes, then there is one chunk', () => {
    expect(splitIntoChunks(['a@example.com', 'b@example.com'], 2)).toHaveLength(1);
  });

  it('when there are no addresses, then there are no chunks (and so no requests)', () => {
    expect(splitIntoChunks([], 1000)).toEqual([]);
  });
});

describe('mergeCheckResults', () => {
  it('when an address is in two chunks in different case, then it is checked and listed once, where it first appears', () => {
    const emails = ['late@example.com', 'Bounced@Example.com', 'x', 'bounced@example.com', 'fine@example.com', 'y@'];
    const chunks = answeredInChunks(emails, 3, new Set(['bounced@example.com', 'late@example.com']));

    const merged = mergeCheckResults(chunks);

    expect(merged.checked).toBe(3);
    expect(merged.suppressed.map(({ email }) => email)).toEqual(['late@example.com', 'bounced@example.com']);
    expect(merged.invalid).toEqual([
      { index: 2, email: 'x', reason: 'is not a valid email address' },
      { index: 5, email: 'y@', reason: 'is not a valid email address' },
    ]);
  });

  it('when no chunk was needed, then the answer is empty', () => {
    expect(mergeCheckResults([])).toEqual({ object: 'suppression_check', checked: 0, suppressed: [], invalid: [] });
  });

  it('when two chunks name one address with different entries, then the first chunk’s entry is kept', () => {
    const first = { ...entry('a@example.com'), id: 'first' };
    const second = { ...entry('a@example.com'), id: 'second' };
    const merged = mergeCheckResults([
      {
        offset: 0,
        emails: ['a@example.com'],
        result: { object: 'suppression_check', checked: 1, suppressed: [first], invalid: [] },
      },
      {
        offset: 1,
        emails: ['A@example.com'],
        result: { object: 'suppression_check', checked: 1, suppressed: [second], invalid: [] },
      },
    ]);

    expect(merged.suppressed).toEqual([first]);
  });

  it('when any input is asked in chunks of any size, then the merged answer is the one-request answer', () => {
    const address = fc.oneof(
      fc.constantFrom('a@example.com', 'A@Example.com', ' b@example.com ', 'c@example.com', 'd@example.org'),
      fc.constantFrom('', 'not-an-address', 'e@', '@example.com', 'f g@example.com'),
    );
    fc.assert(
      fc.property(
        fc.array(address, { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.subarray(['a@example.com', 'b@example.com', 'd@example.org']),
        (emails, size, suppressed) => {
          const set = new Set(suppressed);
          expect(mergeCheckResults(answeredInChunks(emails, size, set))).toEqual(apiAnswer(emails, set));
        },
      ),
    );
  });
});

describe('sendableOf', () => {
  const emails = [
    ' Ok@Example.com',
    'gone@example.com',
    'bad',
    'ok@example.com',
    'GONE@example.com',
    'new@example.com',
  ];
  const result = apiAnswer(emails, new Set(['gone@example.com']));

  it('when addresses are suppressed, repeated or invalid, then only the others are sendable, normalised, once, in input order', () => {
    expect(sendableOf(emails, result).sendable).toEqual(['ok@example.com', 'new@example.com']);
  });

  it('when addresses are suppressed or invalid, then their entries and reasons come back with the sendable ones', () => {
    const { suppressed, invalid } = sendableOf(emails, result);

    expect(suppressed.map(({ email }) => email)).toEqual(['gone@example.com']);
    expect(invalid).toEqual([{ index: 2, email: 'bad', reason: 'is not a valid email address' }]);
  });

  it('when the input is empty, then nothing is sendable', () => {
    expect(sendableOf([], apiAnswer([], new Set()))).toEqual({ sendable: [], suppressed: [], invalid: [] });
  });
});
