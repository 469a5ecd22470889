import { describe, expect, it } from 'vitest';
import { WriteCoalescer } from '../../src/write-coalescer.js';
import { sleep } from '../support/sleep.js';

function recordingWriter() {
  const batches: number[][] = [];
  const write = async (items: number[]): Promise<number[]> => {
    batches.push(items);
    await sleep(5);
    return items.map((item) => item * 10);
  };
  return { batches, write };
}

describe('write coalescing', () => {
  it('when items arrive together, then they share one write and each caller gets its own result', async () => {
    const { batches, write } = recordingWriter();
    const coalescer = new WriteCoalescer(write, { maxBatch: 100, maxDelayMs: 5, maxInFlight: 4 });
    const results = await Promise.all([1, 2, 3].map((item) => coalescer.submit(item)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('when a batch fills, then it is written at once without waiting for the delay', async () => {
    const { batches, write } = recordingWriter();
    const coalescer = new WriteCoalescer(write, { maxBatch: 2, maxDelayMs: 60_000, maxInFlight: 4 });
    const results = await Promise.all([1, 2, 3, 4].map((item) => coalescer.submit(item)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('when a write fails, then every caller of that batch gets the error and later batches still work', async () => {
    let fail = true;
    const coalescer = new WriteCoalescer<number, number>(
      (items) => (fail ? Promise.reject(new Error('database away')) : Promise.resolve(items)),
      { maxBatch: 10, maxDelayMs: 1, maxInFlight: 4 },
    );
    const failed = await Promise.allSettled([coalescer.submit(1), coalescer.submit(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await coalescer.submit(3)).toBe(3);
  });

  it('when a write fails because of one item and failures may be isolated, then the batch is retried in halves, that item alone fails, and the others are written', async () => {
    const attempts: number[][] = [];
    const coalescer = new WriteCoalescer<number, number>(
      (items) => {
        attempts.push(items);
        return items.includes(13) ? Promise.reject(new Error('refused 13')) : Promise.resolve(items.map((i) => i * 10));
      },
      { maxBatch: 8, maxDelayMs: 60_000, maxInFlight: 1, isolateFailures: () => true },
    );
    const outcomes = await Promise.allSettled([10, 11, 12, 13, 14, 15, 16, 17].map((item) => coalescer.submit(item)));
    expect(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason))),
    ).toEqual([100, 110, 120, 'Error: refused 13', 140, 150, 160, 170]);
    expect(attempts).toEqual([
      [10, 11, 12, 13, 14, 15, 16, 17],
      [10, 11, 12, 13],
      [10, 11],
      [12, 13],
      [12],
      [13],
      [14, 15, 16, 17],
    ]);
  });

  it('when a write fails with an error that would fail every write alike, then it is not retried in halves', async () => {
    const attempts: number[][] = [];
    const coalescer = new WriteCoalescer<number, number>(
      (items) => {
        attempts.push(items);
        return Promise.reject(new Error('database away'));
      },
      { maxBatch: 4, maxDelayMs: 60_000, maxInFlight: 1, isolateFailures: (error) => !String(error).includes('away') },
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((item) => coalescer.submit(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(4).fill('rejected'));
    expect(attempts).toEqual([[1, 2, 3, 4]]);
  });

  it('when drained, then waiting items are written and writes under way finish first', async () => {
    const { batches, write } = recordingWriter();
    const coalescer = new WriteCoalescer(write, { maxBatch: 100, maxDelayMs: 60_000, maxInFlight: 4 });
    const pending = coalescer.submit(7);
    await coalescer.drain();
    expect(batches).toEqual([[7]]);
    expect(await pending).toBe(70);
  });
});
