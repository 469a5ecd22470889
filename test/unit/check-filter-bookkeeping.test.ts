import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANY_NAMED_SCOPE, KeyFilter, REBUILD_BOUNDS } from '../../src/check-filter/key-filter.js';
import { roundQueue } from '../../src/check-filter/round-queue.js';

const account = randomUUID();
const emails = (count: number, tag: string) =>
  Array.from({ length: count }, (_, index) => `${tag}${index}@example.com`);

describe('the key filter', () => {
  it('when it is built for the keys it holds, then it takes at most 2 bytes a key and answers "maybe" for about 0.3 % of the keys it never held', () => {
    const filter = new KeyFilter(200_000);
    for (const email of emails(200_000, 'held')) filter.add(account, '', email);
    expect(filter.bytes / filter.keys).toBeLessThanOrEqual(2);
    const absent = emails(100_000, 'never');
    const maybe = filter.mayHold(account, [''], absent).filter(Boolean).length / absent.length;
    expect(maybe).toBeLessThan(0.005);
    expect(filter.estimatedFalsePositiveRate).toBeGreaterThan(0.001);
    expect(filter.estimatedFalsePositiveRate).toBeLessThan(0.005);
  });

  it('when an entry is of a named scope, then it holds its own key and the key of "some named scope", and counts both', () => {
    const filter = new KeyFilter(10);
    filter.add(account, 'newsletter', 'jane@example.com');
    filter.add(account, '', 'bob@example.com');
    expect(filter.keys).toBe(3);
    expect(filter.mayHold(account, ['newsletter'], ['jane@example.com'])).toEqual([true]);
    expect(filter.mayHold(account, ['', ANY_NAMED_SCOPE], ['jane@example.com'])).toEqual([true]);
    expect(filter.mayHold(account, ['', ANY_NAMED_SCOPE], ['bob@example.com'])).toEqual([true]);
    expect(filter.mayHold(account, [ANY_NAMED_SCOPE], ['bob@example.com'])).toEqual([false]);
    expect(filter.mayHold(randomUUID(), ['', 'newsletter'], ['jane@example.com'])).toEqual([false]);
  });

  it("when an account has never held a key in a named scope, then a check in that scope asks only for the whole account's key, however full the bits", () => {
    const filter = new KeyFilter(10);
    // Far past its capacity: nearly every bit is set, so any key that is probed reads "maybe".
    for (const email of emails(100_000, 'full')) filter.add(account, 'newsletter', email);
    const other = randomUUID();
    filter.add(other, '', 'bob@example.com');

    expect(filter.mayHold(account, ['newsletter'], ['never@example.com'])).toEqual([true]);
    expect(filter.mayHold(account, [ANY_NAMED_SCOPE], ['never@example.com'])).toEqual([true]);
    expect(filter.mayHold(account, ['promotions'], ['never@example.com'])).toEqual([false]);
    expect(filter.mayHold(other, [ANY_NAMED_SCOPE], ['never@example.com'])).toEqual([false]);
    expect(filter.mayHold(other, ['', 'promotions'], ['bob@example.com'])).toEqual([true]);
  });

  it('when it holds more keys than it was sized for, then it asks to be built again for its capacity', () => {
    const filter = new KeyFilter(0);
    for (const email of emails(filter.capacity, 'full')) filter.add(account, '', email);
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBeUndefined();
    filter.add(account, '', 'one-more@example.com');
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBe('capacity');
  });

  it('when a fifth of its entries are removed, then it asks to be built again for its stale bits', () => {
    const filter = new KeyFilter(1000);
    for (const email of emails(1000, 'entry')) filter.add(account, '', email);
    filter.removed(200);
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBeUndefined();
    filter.removed(1);
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBe('stale');
  });

  it('when the database finds nothing for more than 2 % of its "maybe" answers, then it asks to be built again only once enough addresses were answered', () => {
    const filter = new KeyFilter(1000);
    filter.answered(97_000, 2_999);
    expect(filter.measuredFalsePositiveRate).toBeCloseTo(2_999 / 99_999, 6);
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBeUndefined();
    filter.answered(0, 1);
    expect(filter.rebuildReason(REBUILD_BOUNDS)).toBe('false_positives');
  });
});

function gate() {
  let open!: (value: number) => void;
  const promise = new Promise<number>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the rounds', () => {
  it('when callers ask while a round runs, then they all share the next round, which begins once the running one ends', async () => {
    const gates: ReturnType<typeof gate>[] = [];
    const queue = roundQueue(() => {
      const next = gate();
      gates.push(next);
      return next.promise;
    });
    const first = queue.fresh();
    const second = queue.fresh();
    const third = queue.fresh();
    expect(gates).toHaveLength(1);
    gates[0]!.open(1);
    expect(await first).toBe(1);
    expect(gates).toHaveLength(2);
    gates[1]!.open(2);
    expect(await Promise.all([second, third])).toEqual([2, 2]);
    expect(queue.running).toBe(false);
  });

  it('when nobody waits, then a poke starts a round only if none runs', async () => {
    let started = 0;
    const queue = roundQueue(() => Promise.resolve((started += 1)));
    queue.poke();
    queue.poke();
    expect(started).toBe(1);
    expect(await queue.fresh()).toBe(2);
  });
});
