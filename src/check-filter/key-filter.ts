import { BloomFilter } from 'bloomfilter';
import { hashEach, mayContainEach } from './bloom-probe.js';

/**
 * Bits per key the filter is sized for, and hashes per key: at that load a Bloom filter answers
 * "maybe" for 0.82 % of the keys it never held ((1 - e^(-7/10))^7).
 */
export const BITS_PER_KEY = 10;
export const HASHES = 7;
/** A filter is built for 1.25 times the keys it starts with: room for adds before it is full. */
export const HEADROOM = 1.25;
/** The smallest filter, 8 KB: a new or small list costs nothing worth counting. */
const MIN_CAPACITY = 6554;

/**
 * The key that says an address has an entry of some named scope: `*` is no scope's name (scopes are
 * `[a-z0-9._-]`), so it never meets a real key.
 */
export const ANY_NAMED_SCOPE = '*';

/** When a filter is worth building again; tests make them small. */
export interface RebuildBounds {
  /** Removed entries, as a share of the keys added, whose stale bits are worth a rebuild. */
  staleShare: number;
  /** The share of "maybe" answers the database did not confirm above which the filter is built again... */
  unconfirmedShare: number;
  /** ...once this many addresses have been answered since it was built. */
  unconfirmedSample: number;
}

export const REBUILD_BOUNDS: RebuildBounds = { staleShare: 0.2, unconfirmedShare: 0.02, unconfirmedSample: 100_000 };

export type RebuildReason = 'capacity' | 'stale' | 'false_positives';

/**
 * The keys of the list, (address, account, stored scope), in a Bloom filter over a typed array
 * (the `bloomfilter` package: 64-bit FNV-1a and enhanced double hashing): "certainly not on the
 * list" from memory, "maybe" otherwise. A removal clears nothing; its bits stay until a rebuild.
 * Keys are added by the package and probed by `mayContainEach`, which reads the same bits from the
 * same hash. A key begins with its address: a check hashes each address once (`hashEach`), and then
 * only the few characters of account and scope for each scope it probes.
 *
 * An account is named in its keys by a short number of this filter's own, not its 36-character id:
 * the hash reads every character of a key, so a key half as long costs half as much. The named
 * scopes each account has held a key in are kept beside the bits: a check in a scope the account
 * has no entry in probes only the whole account's key, not a second one that cannot be there.
 */
export class KeyFilter {
  /** The keys it was sized for: past them, its false-positive rate passes 0.82 %. */
  readonly capacity: number;
  private readonly bloom: BloomFilter;
  private readonly accounts = new Map<string, string>();
  /** `account\nscope` for every named scope (and `ANY_NAMED_SCOPE`) an account has held a key in since the build. */
  private readonly namedScopes = new Set<string>();
  /** Keys added, counting an entry of a named scope twice (its own key and `ANY_NAMED_SCOPE`'s). */
  private added = 0;
  /** Entries removed since the build: their bits stay. */
  private removedEntries = 0;
  /** Addresses answered "certainly absent", and "maybe" ones that the database did not find. */
  private absentAnswers = 0;
  private unconfirmedAnswers = 0;

  constructor(expectedKeys: number) {
    this.capacity = Math.max(MIN_CAPACITY, Math.ceil(expectedKeys * HEADROOM));
    this.bloom = new BloomFilter(this.capacity * BITS_PER_KEY, HASHES);
  }

  /** Adds an entry's keys: its own, and for a named scope the key of "some named scope". */
  add(accountId: string, scope: string, email: string): void {
    let account = this.accounts.get(accountId);
    if (account === undefined) {
      account = this.accounts.size.toString(36);
      this.accounts.set(accountId, account);
    }
    this.bloom.add(`${email}\n${account}\n${scope}`);
    this.added += 1;
    if (scope === '') return;
    this.bloom.add(`${email}\n${account}\n${ANY_NAMED_SCOPE}`);
    this.added += 1;
    this.namedScopes.add(`${account}\n${scope}`);
    this.namedScopes.add(`${account}\n${ANY_NAMED_SCOPE}`);
  }

  removed(entries: number): void {
    this.removedEntries += entries;
  }

  /**
   * For each address, whether any of its keys in these scopes may be on the list. `heads`, the
   * addresses' hashes (`hashEach`), when the caller has them already.
   */
  mayHold(accountId: string, scopes: readonly string[], emails: readonly string[], heads?: Uint16Array): boolean[] {
    const answers = new Array<boolean>(emails.length).fill(false);
    const account = this.accounts.get(accountId);
    // An account none of whose entries was ever added has no key at all.
    if (account === undefined) return answers;
    const probed = scopes.filter((scope) => scope === '' || this.namedScopes.has(`${account}\n${scope}`));
    if (probed.length === 0) return answers;
    const hashed = heads ?? hashEach(emails);
    for (const scope of probed) mayContainEach(this.bloom, hashed, `\n${account}\n${scope}`, answers);
    return answers;
  }

  /** What the database made of the addresses this filter answered for. */
  answered(absent: number, unconfirmed: number): void {
    this.absentAnswers += absent;
    this.unconfirmedAnswers += unconfirmed;
  }

  get keys(): number {
    return this.added;
  }

  get bytes(): number {
    return this.bloom.buckets.byteLength;
  }

  /** The rate a key never added is answered "maybe" at, from the keys added: (1 - e^(-kn/m))^k. */
  get estimatedFalsePositiveRate(): number {
    return (1 - Math.exp((-HASHES * this.added) / this.bloom.m)) ** HASHES;
  }

  /**
   * Of the addresses not on the list that it answered for, the share it answered "maybe": false
   * positives and stale bits alike (and allowlisted entries, which the check does not report).
   */
  get measuredFalsePositiveRate(): number {
    const answered = this.absentAnswers + this.unconfirmedAnswers;
    return answered === 0 ? 0 : this.unconfirmedAnswers / answered;
  }

  /** Why it should be built again, if it should. */
  rebuildReason(bounds: RebuildBounds): RebuildReason | undefined {
    if (this.added > this.capacity) return 'capacity';
    if (this.removedEntries > bounds.staleShare * Math.max(1, this.added)) return 'stale';
    const answered = this.absentAnswers + this.unconfirmedAnswers;
    if (answered >= bounds.unconfirmedSample && this.measuredFalsePositiveRate > bounds.unconfirmedShare) {
      return 'false_positives';
    }
    return undefined;
  }
}
