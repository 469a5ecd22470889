import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashEach } from '../../src/check-filter/bloom-probe.js';
import { distinctHashed } from '../../src/check-filter/hashed-addresses.js';

/** The upper 32 bits of each text's hash, as `distinctHashed` picks its slots by them. */
function slotOf(text: string, mask: number): number {
  const head = hashEach([text]);
  const upper = ((head[3] as number) << 16) | (head[2] as number);
  return (upper ^ (upper >>> 16)) & mask;
}

/** What `distinctHashed` must answer: each text once, in first-seen order, with its own hash. */
function expectDistinct(texts: readonly string[]): void {
  const { emails, heads } = distinctHashed(texts);
  const expected = [...new Set(texts)];
  expect(emails).toEqual(expected);
  expect(Array.from(heads)).toEqual(Array.from(hashEach(expected)));
}

describe('telling a check’s addresses apart by their filter hash', () => {
  it('when addresses repeat, then each is kept once, in first-seen order, with its own hash', () => {
    expectDistinct(['b@example.com', 'a@example.com', 'b@example.com', 'c@example.com', 'a@example.com']);
    expectDistinct([]);
    expectDistinct(Array.from({ length: 1000 }, (_, index) => `user${index % 300}@example${index % 7}.com`));
  });

  it('when any list of texts is given, repeated or not, then the answer is the Set’s', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('a@b.co', 'x@y.org', 'a@b.co\n'), fc.string({ maxLength: 20 })), {
          maxLength: 60,
        }),
        (texts) => expectDistinct(texts),
      ),
      { numRuns: 2000 },
    );
  });

  it('when many different addresses are chosen to fall in one slot, then they are all kept, each once', () => {
    // 60 addresses make a table of 128 slots: all of these share slot 0, past the table's few steps each.
    const chosen: string[] = [];
    for (let index = 0; chosen.length < 60; index += 1) {
      const email = `flood${index}@example.com`;
      if (slotOf(email, 127) === 0) chosen.push(email);
    }
    expectDistinct(chosen);
    expectDistinct([...chosen.slice(0, 40), ...chosen.slice(10, 30)]);
  });
});
