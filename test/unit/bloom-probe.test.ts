import { BloomFilter } from 'bloomfilter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashEach, mayContainEach } from '../../src/check-filter/bloom-probe.js';

/** The probe's answer for each text followed by `suffix`, none answered before. */
function probed(bloom: BloomFilter, texts: readonly string[], suffix: string): boolean[] {
  const answers = new Array<boolean>(texts.length).fill(false);
  mayContainEach(bloom, hashEach(texts), suffix, answers);
  return answers;
}

describe('the probe of the check filter', () => {
  it('when keys are added with the package, then the probe answers as the package does for every key, added or not', () => {
    for (const bits of [64, 65_540, 1_000_003, 25_000_000]) {
      const bloom = new BloomFilter(bits, 7);
      const added = Array.from({ length: Math.ceil(bits / 12) }, (_, index) => `user${index}@example${index % 97}.com`);
      const suffix = '\n3\n';
      for (const email of added.slice(0, 5000)) bloom.add(email + suffix);
      const asked = [
        ...added.slice(0, 6000),
        ...Array.from({ length: 20_000 }, (_, index) => `clean${index}@example.org`),
      ];
      const answers = probed(bloom, asked, suffix);
      const disagreeing = asked.filter((email, index) => answers[index] !== bloom.test(email + suffix));
      expect(disagreeing, `m = ${bloom.m}`).toEqual([]);
      expect(probed(bloom, added.slice(0, 5000), suffix).every(Boolean)).toBe(true);
    }
  });

  it('when some texts are already answered "maybe", then they stay so and the others are answered as the package answers', () => {
    const bloom = new BloomFilter(65_540, 7);
    for (let index = 0; index < 2000; index += 1) bloom.add(`user${index}@example.com\n0\n`);
    const texts = Array.from({ length: 4000 }, (_, index) => `user${index}@example.com`);
    const answers = texts.map((_, index) => index % 3 === 0);
    mayContainEach(bloom, hashEach(texts), '\n0\n', answers);
    expect(answers).toEqual(texts.map((text, index) => index % 3 === 0 || bloom.test(`${text}\n0\n`)));
  });

  it('when any suffix follows any text, then hashing on from the text answers as hashing the whole', () => {
    const bloom = new BloomFilter(4096, 7);
    for (let index = 0; index < 200; index += 1) bloom.add(`k${index}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 12 }), (text, suffix) => {
        expect(probed(bloom, [text], suffix)).toEqual([bloom.test(text + suffix)]);
      }),
      { numRuns: 3000 },
    );
  });

  it('when texts are hashed together, then each has the hash it has alone', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 20 }), (texts) => {
        const together = hashEach(texts);
        texts.forEach((text, index) => {
          expect(Array.from(together.subarray(index * 4, index * 4 + 4))).toEqual(Array.from(hashEach([text])));
        });
      }),
      { numRuns: 500 },
    );
  });
});
