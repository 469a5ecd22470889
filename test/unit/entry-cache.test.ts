import { describe, expect, it } from 'vitest';
import { EntryCache } from '../../src/check-filter/entry-cache.js';

const ACCOUNT = 'a1';
const OTHER = 'a2';
const entry = (email: string, id = 'e1') => ({ email, resource: `{"id":"${id}","email":"${email}"}` });

describe('the check entry cache', () => {
  it('when a read found an entry and nothing changed meanwhile, then the entry is answered from it in the scope it was asked in only', () => {
    const cache = new EntryCache(10);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toEqual(entry('x@example.com'));
    expect(cache.get(ACCOUNT, 'news', 'x@example.com')).toBeUndefined();
    expect(cache.get(OTHER, '', 'x@example.com')).toBeUndefined();
  });

  it('when a key of the address changes in any scope, then its answers in every scope are dropped, and only its', () => {
    const cache = new EntryCache(10);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com'));
    cache.keep(cache.ticket(ACCOUNT), 'news', 'x@example.com', entry('x@example.com'));
    cache.keep(cache.ticket(ACCOUNT), '', 'y@example.com', entry('y@example.com'));
    cache.changed(ACCOUNT, 'x@example.com');
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    expect(cache.get(ACCOUNT, 'news', 'x@example.com')).toBeUndefined();
    expect(cache.get(ACCOUNT, '', 'y@example.com')).toEqual(entry('y@example.com'));
  });

  it('when a removal is applied while a read of the account is in flight, then what the read found is not kept', () => {
    const cache = new EntryCache(10);
    const ticket = cache.ticket(ACCOUNT);
    // The read's snapshot came before the removal; the removal was applied before the read returned.
    cache.changed(ACCOUNT, 'x@example.com');
    cache.keep(ticket, '', 'x@example.com', entry('x@example.com'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    // A read begun after the removal was applied is kept.
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com', 'e2'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')?.resource).toContain('e2');
  });

  it("when an account's allowlist changes, then all of its answers are dropped and a read begun before is not kept", () => {
    const cache = new EntryCache(10);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com'));
    cache.keep(cache.ticket(OTHER), '', 'x@example.com', entry('x@example.com'));
    const inFlight = cache.ticket(ACCOUNT);
    cache.accountChanged(ACCOUNT);
    cache.keep(inFlight, '', 'y@example.com', entry('y@example.com'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    expect(cache.get(ACCOUNT, '', 'y@example.com')).toBeUndefined();
    expect(cache.get(OTHER, '', 'x@example.com')).toEqual(entry('x@example.com'));
  });

  it('when it is cleared, then nothing is answered and no read begun before is kept, whatever its account', () => {
    const cache = new EntryCache(10);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com'));
    const inFlight = cache.ticket(OTHER);
    cache.clear();
    cache.keep(inFlight, '', 'y@example.com', entry('y@example.com'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    expect(cache.get(OTHER, '', 'y@example.com')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when it holds its capacity, then keeping another entry starts it again with that entry alone', () => {
    const cache = new EntryCache(2);
    for (const email of ['a@example.com', 'b@example.com']) cache.keep(cache.ticket(ACCOUNT), '', email, entry(email));
    cache.keep(cache.ticket(ACCOUNT), '', 'a@example.com', entry('a@example.com', 'again'));
    expect(cache.size).toBe(2);
    cache.keep(cache.ticket(OTHER), '', 'c@example.com', entry('c@example.com'));
    expect(cache.size).toBe(1);
    expect(cache.get(ACCOUNT, '', 'a@example.com')).toBeUndefined();
    expect(cache.get(OTHER, '', 'c@example.com')).toEqual(entry('c@example.com'));
  });

  it('when a read found no entry for an address, then it is answered as having none until a key of the address changes', () => {
    const cache = new EntryCache(10);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', null);
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeNull();
    expect(cache.get(ACCOUNT, 'news', 'x@example.com')).toBeUndefined();
    expect(cache.size).toBe(1);
    cache.changed(ACCOUNT, 'x@example.com');
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    // An add applied while a read that found nothing was in flight: its absence is not kept.
    const inFlight = cache.ticket(ACCOUNT);
    cache.changed(ACCOUNT, 'x@example.com');
    cache.keep(inFlight, '', 'x@example.com', null);
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
  });

  it('when its capacity is 0, then it keeps nothing', () => {
    const cache = new EntryCache(0);
    cache.keep(cache.ticket(ACCOUNT), '', 'x@example.com', entry('x@example.com'));
    expect(cache.get(ACCOUNT, '', 'x@example.com')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
