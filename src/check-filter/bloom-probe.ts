import type { BloomFilter } from 'bloomfilter';

/**
 * The state of the `bloomfilter` package's 64-bit FNV-1a hash, in its four 16-bit limbs, after
 * some characters: a key's prefix (account and scope) is hashed once per check, and each address
 * of the check goes on from there.
 */
export type HashState = readonly [number, number, number, number];

/** The hash of no characters: FNV-1a's 64-bit offset basis. */
export const EMPTY_HASH: HashState = [0x2325, 0x8422, 0x9ce4, 0xcbf2];

/** The state after `text`, from `state`: the package's hash loop, character for character. */
export function hashOn(state: HashState, text: string): HashState {
  let [v0, v1, v2, v3] = state;
  for (let i = 0; i < text.length; ++i) {
    v0 ^= text.charCodeAt(i);
    const t0 = v0 * 0x01b3;
    let t1 = v1 * 0x01b3;
    let t2 = v2 * 0x01b3 + (v0 << 8);
    const t3 = v3 * 0x01b3 + (v1 << 8);
    t1 += t0 >>> 16;
    v0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    v1 = t1 & 0xffff;
    v3 = (t3 + (t2 >>> 16)) & 0xffff;
    v2 = t2 & 0xffff;
  }
  return [v0, v1, v2, v3];
}

/**
 * Whether the filter may hold `prefix + text`: the package's `test`, bit for bit, with two changes
 * that leave its answer as it was. It reads each bit as soon as it has the bit's position, so a key
 * that is not there (nearly every address a check asks about) stops at its first clear bit, on
 * average about the second, where the package computes all seven positions first. And it steps from
 * one position to the next by a subtraction, not a division (both values are below `m`, so their
 * sum is below 2m).
 */
export function mayContain(bloom: BloomFilter, prefix: HashState, text: string): boolean {
  const [v0, v1, v2, v3] = hashOn(prefix, text);
  const { m, k, buckets } = bloom;
  let a = ((v3 << 16) | v2) % m;
  if (a < 0) a += m;
  let b = ((v1 << 16) | v0) % m;
  if (b < 0) b += m;
  if ((buckets[a >>> 5]! & (1 << (a & 0x1f))) === 0) return false;
  for (let i = 1; i < k; ++i) {
    a += b;
    if (a >= m) a -= m;
    b += i;
    if (b >= m) b -= m;
    if ((buckets[a >>> 5]! & (1 << (a & 0x1f))) === 0) return false;
  }
  return true;
}
