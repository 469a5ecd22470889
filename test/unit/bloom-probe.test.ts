import { BloomFilter } from 'bloomfilter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_HASH, hashOn, mayContain } from '../../src/check-filter/bloom-probe.js';

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
      const disagreeing = asked.filter((email) => mayContain(bloom, state, email) !== bloom.test(prefix + email));
      expect(disagreeing, `m = ${bloom.m}`).toEqual([]);
      expect(added.slice(0, 5000).every((email) => mayContain(bloom, state, email))).toBe(true);
    }
  });

  it('when any text follows any prefix, then hashing on from the prefix answers as hashing the whole', () => {
    const bloom = new BloomFilter(4096, 7);
    for (let index = 0; index < 200; index += 1) bloom.add(`k${index}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }), (prefix, text) => {
        expect(mayContain(bloom, hashOn(EMPTY_HASH, prefix), text)).toBe(bloom.test(prefix + text));
        expect(hashOn(hashOn(EMPTY_HASH, prefix), text)).toEqual(hashOn(EMPTY_HASH, prefix + text));
      }),
      { numRuns: 3000 },
    );
  });
});
