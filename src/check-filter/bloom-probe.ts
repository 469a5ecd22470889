import type { BloomFilter } from 'bloomfilter';

/** The state `absorb` left: module variables, so that the hash of each text allocates nothing. */
let h0 = 0;
let h1 = 0;
let h2 = 0;
let h3 = 0;

/** Runs the package's hash loop over `text` from the state s0..s3, and leaves the state after it in h0..h3. */
function absorb(s0: number, s1: number, s2: number, s3: number, text: string): void {
  let v0 = s0;
  let v1 = s1;
  let v2 = s2;
  let v3 = s3;
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
  h0 = v0;
  h1 = v1;
  h2 = v2;
  h3 = v3;
}

/**
 * The state of the `bloomfilter` package's 64-bit FNV-1a hash after each text, from the empty one:
 * its four 16-bit limbs, at `4 * index`. A key of the filter begins with its address, so an address
 * is hashed once per check, whatever scopes its keys are probed in.
 */
export function hashEach(texts: readonly string[]): Uint16Array {
  const heads = new Uint16Array(texts.length * 4);
  for (let index = 0; index < texts.length; index += 1) {
    // FNV-1a's 64-bit offset basis, in limbs.
    absorb(0x2325, 0x8422, 0x9ce4, 0xcbf2, texts[index] as string);
    heads[index * 4] = h0;
    heads[index * 4 + 1] = h1;
    heads[index * 4 + 2] = h2;
    heads[index * 4 + 3] = h3;
  }
  return heads;
}

/**
 * Whether the filter may hold `text + suffix`, for each text whose hash `heads` holds (`hashEach`)
 * and one suffix (account and scope): the package's `test`, bit for bit, each answer set in
 * `answers` (a text already answered true is not probed). Three changes leave its answers as they
 * were:
 * - it reads each bit once it has the bit's position, so a key that is not there (nearly every
 *   address a check asks about) stops at its first clear bit, on average about the second, where
 *   the package computes all seven positions first;
 * - it steps from one position to the next by a subtraction, not a division (both values are below
 *   `m`, so their sum is below 2m);
 * - it reads in passes: the first bit of every text, then the next bit of those whose bit was set,
 *   and so on. A filter of millions of keys is larger than the CPU's caches, and nearly every first
 *   read misses them. One text at a time, each miss waits behind the branch on the one before; the
 *   reads of a pass depend on none of one another, and the CPU has many of them in flight at once.
 */
export function mayContainEach(bloom: BloomFilter, heads: Uint16Array, suffix: string, answers: boolean[]): void {
  const { m, k, buckets } = bloom;
  const count = answers.length;
  const positions = new Float64Array(count);
  const steps = new Float64Array(count);
  const owners = new Int32Array(count);
  const set = new Uint8Array(count);
  let live = 0;
  for (let index = 0; index < count; index += 1) {
    if (answers[index]) continue;
    const at = index * 4;
    absorb(heads[at] as number, heads[at + 1] as number, heads[at + 2] as number, heads[at + 3] as number, suffix);
    let a = ((h3 << 16) | h2) % m;
    if (a < 0) a += m;
    let b = ((h1 << 16) | h0) % m;
    if (b < 0) b += m;
    positions[live] = a;
    steps[live] = b;
    owners[live] = index;
    live += 1;
  }
  for (let round = 1; live > 0; round += 1) {
    // No branch on what is read: a mispredicted one would drop the reads issued after it.
    for (let slot = 0; slot < live; slot += 1) {
      const position = positions[slot] as number;
      set[slot] = ((buckets[position >>> 5] as number) >>> (position & 0x1f)) & 1;
    }
    let kept = 0;
    for (let slot = 0; slot < live; slot += 1) {
      if (set[slot] === 0) continue;
      // The next position, as the package steps to it.
      let a = (positions[slot] as number) + (steps[slot] as number);
      if (a >= m) a -= m;
      let b = (steps[slot] as number) + round;
      if (b >= m) b -= m;
      positions[kept] = a;
      steps[kept] = b;
      owners[kept] = owners[slot] as number;
      kept += 1;
    }
    live = kept;
    if (round === k) break;
  }
  for (let slot = 0; slot < live; slot += 1) answers[owners[slot] as number] = true;
}
