// The package ships JavaScript only: the part of its API the filter uses (bloomfilter 1.1).
declare module 'bloomfilter' {
  export class BloomFilter {
    /** `m` bits (rounded up to whole 32-bit words) and `k` hashes per value. */
    constructor(m: number, k: number);
    readonly m: number;
    readonly k: number;
    /** The bit set itself: m / 8 bytes. */
    readonly buckets: Uint32Array;
    add(value: string): void;
    test(value: string): boolean;
  }
}
