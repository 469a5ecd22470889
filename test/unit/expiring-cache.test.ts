import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpiringCache } from '../../api/http/expiring-cache.js';
import { sleep } from '../support/sleep.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00.000Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ExpiringCache', () => {
  it('when a value is stored, then it is read back; an unknown key reads undefined', () => {
    const cache = new ExpiringCache<string, number>(1000, 10);
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
  });

  it('when null is stored, then null is read back, not undefined (a cached "no such key")', () => {
    const cache = new ExpiringCache<string, string | null>(1000, 10);
    cache.set('missing', null);
    expect(cache.get('missing')).toBeNull();
  });

  it('when the ttl has not yet passed, then the value is there; once it has, it is gone', () => {
    const cache = new ExpiringCache<string, string>(1000, 10);
    cache.set('key', 'value');
    vi.advanceTimersByTime(999);
    expect(cache.get('key')).toBe('value');
    vi.advanceTimersByTime(1);
    expect(cache.get('key')).toBeUndefined();
  });

  it('when an entry has expired, then it stays gone even if the clock is read again later', () => {
    const cache = new ExpiringCache<string, string>(50, 10);
    cache.set('key', 'value');
    vi.advanceTimersByTime(60);
    expect(cache.get('key')).toBeUndefined();
    expect(cache.get('key')).toBeUndefined();
  });

  it('when a key is set again, then its value is replaced and its ttl starts over', () => {
    const cache = new ExpiringCache<string, string>(1000, 10);
    cache.set('key', 'old');
    vi.advanceTimersByTime(800);
    cache.set('key', 'new');
    vi.advanceTimersByTime(800);
    expect(cache.get('key')).toBe('new');
    vi.advanceTimersByTime(200);
    expect(cache.get('key')).toBeUndefined();
  });

  it('when the cache is full, then storing one more evicts the oldest entry only', () => {
    const cache = new ExpiringCache<string, number>(1000, 3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.set('d', 4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBe(3);
    expect(cache.get('d')).toBe(4);
  });

  it('when a key is set again, then it becomes the newest and the next eviction takes another', () => {
    const cache = new ExpiringCache<string, number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    expect(cache.get('b')).toBe(2);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(10);
    expect(cache.get('c')).toBe(3);
  });

  it('when a full cache re-sets a key it holds, then nothing else is evicted', () => {
    const cache = new ExpiringCache<string, number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('b', 20);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBe(20);
  });

  it('when entries expire and are never read again, then the next set drops them all', () => {
    const cache = new ExpiringCache<string, number>(1000, 100);
    for (let index = 0; index < 50; index += 1) cache.set(`junk-${index}`, index);
    vi.advanceTimersByTime(500);
    cache.set('recent', 1);
    expect(cache.size).toBe(51);
    vi.advanceTimersByTime(500);
    cache.set('new', 2);
    expect(cache.size).toBe(2);
    expect(cache.get('recent')).toBe(1);
    expect(cache.get('new')).toBe(2);
  });

  it.each([0, -1])('when the ttl is %d, then nothing is stored', (ttl) => {
    const cache = new ExpiringCache<string, string>(ttl, 10);
    cache.set('key', 'value');
    expect(cache.get('key')).toBeUndefined();
  });
});

describe('ExpiringCache on the real clock', () => {
  it('when a short ttl passes in real time, then the entry expires', async () => {
    vi.useRealTimers();
    const cache = new ExpiringCache<string, string>(20, 10);
    cache.set('key', 'value');
    expect(cache.get('key')).toBe('value');
    await sleep(40);
    expect(cache.get('key')).toBeUndefined();
  });
});
