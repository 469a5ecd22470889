/** An entry as the check answers with it: its address, and its resource as JSON text. */
export interface CachedEntry {
  email: string;
  resource: string;
}

/**
 * Taken before a read of the database, and shown when its answers are kept: they are kept only if
 * nothing the read may have missed was applied meanwhile.
 */
export interface CacheTicket {
  readonly accountId: string;
  readonly epoch: number;
  readonly generation: number;
}

/** What the cache knows of an account: its answers by scope asked and address, and a count of its changes. */
interface AccountState {
  scopes: Map<string, Map<string, CachedEntry | null>>;
  generation: number;
}

/**
 * What the check found lately of the filter's "maybe" addresses, by (account, scope asked, address),
 * so that an address that is checked again is answered from memory: the check's "maybe" addresses
 * are mostly the same suppressed recipients, met again in every send to a list, and the same few
 * false positives of the filter, for which the database has no entry (kept as `null`). It is kept
 * current by the same changes as the filter: every change of an address's keys (an add or a
 * removal, in any scope) drops its answers, a change of an account's allowlist drops the whole
 * account's, and anything that leaves the changes unknown (the filter built again) drops everything.
 *
 * A read that began before a removal may return after the removal was applied here; `keep` then
 * turns its answer away, since the account's generation (or the epoch) has moved since its ticket.
 * At most `capacity` entries: once full, it starts again empty, which costs one read of each address
 * met again, where tracking an order would cost memory for every entry. Addresses are keys as they
 * are (a string caches its own hash), not joined into a longer one that would be hashed anew.
 */
export class EntryCache {
  private readonly accounts = new Map<string, AccountState>();
  private epoch = 0;
  private count = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  private account(accountId: string): AccountState {
    let state = this.accounts.get(accountId);
    if (state === undefined) {
      state = { scopes: new Map(), generation: 0 };
      this.accounts.set(accountId, state);
    }
    return state;
  }

  ticket(accountId: string): CacheTicket {
    return { accountId, epoch: this.epoch, generation: this.account(accountId).generation };
  }

  /**
   * The entry that stops a send to this address in this scope ('' for the whole account), null when
   * it is kept as having none, undefined when nothing is kept.
   */
  get(accountId: string, scope: string, email: string): CachedEntry | null | undefined {
    return this.accounts.get(accountId)?.scopes.get(scope)?.get(email);
  }

  /** Keeps what a read begun with `ticket` found for this address (null: no entry), unless the account changed since. */
  keep(ticket: CacheTicket, scope: string, email: string, entry: CachedEntry | null): void {
    if (this.capacity === 0 || ticket.epoch !== this.epoch) return;
    const state = this.accounts.get(ticket.accountId);
    if (state?.generation !== ticket.generation) return;
    if (this.count >= this.capacity && !state.scopes.get(scope)?.has(email)) this.drop();
    let entries = state.scopes.get(scope);
    if (entries === undefined) {
      entries = new Map();
      state.scopes.set(scope, entries);
    }
    const size = entries.size;
    entries.set(email, entry);
    this.count += entries.size - size;
  }

  /** A key of this address was added or removed, in some scope: its answers in every scope may differ now. */
  changed(accountId: string, email: string): void {
    const state = this.accounts.get(accountId);
    if (state === undefined) return;
    state.generation += 1;
    for (const entries of state.scopes.values()) if (entries.delete(email)) this.count -= 1;
  }

  /** The account's allowlist changed: any of its answers may differ now. */
  accountChanged(accountId: string): void {
    const state = this.accounts.get(accountId);
    if (state === undefined) return;
    state.generation += 1;
    for (const entries of state.scopes.values()) this.count -= entries.size;
    state.scopes.clear();
  }

  /** What changed is not known: nothing kept can be trusted, and no read begun before now may be kept. */
  clear(): void {
    this.epoch += 1;
    this.accounts.clear();
    this.count = 0;
  }

  /** Every answer goes; the accounts' generations stay, so reads in flight are still judged by them. */
  private drop(): void {
    for (const state of this.accounts.values()) state.scopes.clear();
    this.count = 0;
  }
}
