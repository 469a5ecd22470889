import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runBlocks, type Block, type Unfinished } from '../../bench/common/blocks.js';
import { beforeDeadline, startDeadline, type Deadline } from '../../bench/common/deadline.js';
import { createLogger } from '../../src/logger.js';

const logger = createLogger('silent');

/** A block that records its deadline's end and then does `work`. */
function block(
  name: string,
  share: number,
  seen: Map<string, number>,
  work: (deadline: Deadline) => Promise<void>,
): Block {
  return {
    name,
    share,
    async run(deadline) {
      seen.set(name, deadline.endsAt);
      await work(deadline);
    },
  };
}

describe('a benchmark run in blocks', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when a block runs past its share, then it is reported unfinished and the blocks after it still run', async () => {
    const run = startDeadline(100_000, 'the run');
    const seen = new Map<string, number>();
    const figures: string[] = [];
    const saves: Unfinished[][] = [];
    const blocks = [
      block('first', 1, seen, () => {
        figures.push('first');
        return Promise.resolve();
      }),
      // Waits on something that never comes, as a hung worker would.
      block('second', 1, seen, (deadline) => beforeDeadline(deadline, new Promise<void>(() => undefined))),
      block('third', 2, seen, () => {
        figures.push('third');
        return Promise.resolve();
      }),
    ];
    const running = runBlocks(blocks, run, logger, (unfinished) => {
      saves.push([...unfinished]);
    });
    await vi.advanceTimersByTimeAsync(50_000);
    const unfinished = await running;

    expect(unfinished).toEqual([{ block: 'second', reason: expect.stringContaining('the second block') as string }]);
    expect(figures).toEqual(['first', 'third']);
    // The figures so far are handed over after every block, the unfinished one included.
    expect(saves).toEqual([[], unfinished, unfinished]);
    run.clear();
  });

  it('when a block ends early, then the blocks after it get its unused time', async () => {
    const startedAt = Date.now();
    const run = startDeadline(100_000, 'the run');
    const seen = new Map<string, number>();
    const blocks = [
      block('first', 1, seen, () => Promise.resolve()),
      block('second', 1, seen, () => Promise.resolve()),
      block('third', 2, seen, () => Promise.resolve()),
    ];
    await runBlocks(blocks, run, logger, () => undefined);

    // Each block must end by the start plus the shares up to and including its own.
    expect(seen.get('first')).toBe(startedAt + 25_000);
    expect(seen.get('second')).toBe(startedAt + 50_000);
    expect(seen.get('third')).toBe(startedAt + 100_000);
    run.clear();
  });

  it("when the whole run is out of time, then every block left is reported with the run's reason", async () => {
    const run = startDeadline(10_000, 'the run');
    await vi.advanceTimersByTimeAsync(10_000);
    const unfinished = await runBlocks(
      [block('late', 1, new Map(), (deadline) => beforeDeadline(deadline, Promise.resolve()))],
      run,
      logger,
      () => Promise.resolve(),
    );
    expect(unfinished).toEqual([{ block: 'late', reason: 'the run did not finish within 10 s; aborted' }]);
  });

  it('when a block runs past its share and its teardown hangs, then it is saved as unfinished before the teardown ends', async () => {
    const run = startDeadline(100_000, 'the run');
    const saves: Unfinished[][] = [];
    const hung: Block = {
      name: 'hung',
      share: 1,
      async run(deadline, cleanup) {
        // A worker that never stops, as one stuck on a connection would.
        cleanup.push('stop the worker', () => new Promise<void>(() => undefined));
        await beforeDeadline(deadline, new Promise<void>(() => undefined));
      },
    };
    void runBlocks([hung], run, logger, (unfinished) => {
      saves.push([...unfinished]);
    });
    await vi.advanceTimersByTimeAsync(100_000);

    expect(saves).toEqual([[{ block: 'hung', reason: 'the run did not finish within 100 s; aborted' }]]);
    run.clear();
  });
});
