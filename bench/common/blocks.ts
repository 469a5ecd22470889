/**
 * A run of benchmark blocks, each within its share of the run's time. A block that runs past its
 * share, or fails, is reported as unfinished and the run goes on to the next block; whatever was
 * measured before is kept and handed to `save` after every block.
 */
import type { Logger } from '../../src/logger.js';
import { inPhase, type CleanupStack } from './cleanup.js';
import { deadlineWithin, type Deadline } from './deadline.js';

export interface Block {
  name: string;
  /** Its share of the run's time; a block that ends early leaves its time to the ones after it. */
  share: number;
  run(deadline: Deadline, cleanup: CleanupStack): Promise<void>;
}

export interface Unfinished {
  block: string;
  reason: string;
}

/**
 * Runs `blocks` in order. Block i must end by the run's start plus the shares of blocks 0..i, as a
 * fraction of the time `deadline` leaves; its own teardown runs before the next block starts.
 */
export async function runBlocks(
  blocks: readonly Block[],
  deadline: Deadline,
  logger: Logger,
  save: (unfinished: readonly Unfinished[]) => Promise<void> | void,
): Promise<Unfinished[]> {
  const unfinished: Unfinished[] = [];
  const startedAt = Date.now();
  const runMs = Math.max(0, deadline.endsAt - startedAt);
  const totalShare = blocks.reduce((sum, block) => sum + block.share, 0);
  let shareSoFar = 0;
  for (const block of blocks) {
    shareSoFar += block.share;
    const endsAt = startedAt + Math.round((runMs * shareSoFar) / totalShare);
    const within = deadlineWithin(deadline, endsAt, `the ${block.name} block`);
    let measured = false;
    let reported: Promise<void> | undefined;
    const report = (reason: unknown): Promise<void> =>
      (reported ??= (async () => {
        unfinished.push({ block: block.name, reason: reason instanceof Error ? reason.message : String(reason) });
        await save(unfinished);
      })());
    // Reported and saved as soon as its time is up, before its teardown runs: a teardown that hangs
    // past the end of the run, which then exits without it, loses nothing.
    const timeUp = () => {
      if (!measured) void report(within.signal.reason);
    };
    within.signal.addEventListener('abort', timeUp, { once: true });
    try {
      await inPhase(block.name, logger, async (cleanup) => {
        await block.run(within, cleanup);
        measured = true;
      });
    } catch (error) {
      await report(error);
    } finally {
      within.signal.removeEventListener('abort', timeUp);
      within.clear();
    }
    await (reported ?? save(unfinished));
  }
  return unfinished;
}
