import { BloomFilter } from 'bloomfilter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH, hashOn, mayContainEach, type HashState } from '../../src/check-filter/bloom-probe.js';

/** The probe's answer for each text, none answered before. */
function probed(bloom: BloomFilter, prefix: HashState, texts: readonly string[]): boolean[] {
  const answers = new Array<boolean>(texts.length).fill(false);
  mayContainEach(bloom, prefix, texts, answers);
  return answers;
}

describe('the probe of the check filter', () => {
  it('when keys are added with the package, then the probe answers as the package does for every key, added or not', () => {
    for (const bits of [64, 65_540, 1_000_003, 25_000_000]) {
      const bloom = new BloomFilter(bits, 7);
      const added = Array.from({ length: Math.ceil(bits / 12) }, (_, index) => `user${index}@example${index % 97}.com`);
      const prefix = '3\n\n';
      for (const email of added.slice(0, 5000)) bloom.add(prefix + email);
      const state = hashOn(EMPTY_HASH, prefix);
      const asked = [
        ...added.slice(0, 6000),
        ...Array.from({ length: 20_000 }, (_, index) => `clean${index}@example.org`),
      ];
      const answers = probed(bloom, state, asked);
      const disagreeing = asked.filter((email, index) => answers[index] !== bloom.test(prefix + email));
      expect(disagreeing, `m = ${bloom.m}`).toEqual([]);
      expect(probed(bloom, state, added.slice(0, 5000)).every(Boolean)).toBe(true);
    }
  });

  it('when some texts are already answered "maybe", then they stay so and the others are answered as the package answers', () => {
    const bloom = new BloomFilter(65_540, 7);
    for (let index = 0; index < 2000; index += 1) bloom.add(`\n\nuser${index}@example.com`);
    const texts = Array.from({ length: 4000 }, (_, index) => `user${index}@example.com`);
    const answers = texts.map((_, index) => index % 3 === 0);
    mayContainEach(bloom, hashOn(EMPTY_HASH, '\n\n'), texts, answers);
    expect(answers).toEqual(texts.map((text, index) => index % 3 === 0 || bloom.test(`\n\n${text}`)));
  });

  it('when any text follows any prefix, then hashing on from the prefix answers as hashing the whole', () => {
    const bloom = new BloomFilter(4096, 7);
    for (let index = 0; index < 200; index += 1) bloom.add(`k${index}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }), (prefix, text) => {
        expect(probed(bloom, hashOn(EMPTY_HASH, prefix), [text])).toEqual([bloom.test(prefix + text)]);
        expect(hashOn(hashOn(EMPTY_HASH, prefix), text)).toEqual(hashOn(EMPTY_HASH, prefix + text));
      }),
      { numRuns: 3000 },
    );
  });
});
