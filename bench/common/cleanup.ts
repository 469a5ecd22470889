import type { Logger } from '../../src/logger.js';

/**
 * Teardown steps registered as resources are acquired and run in reverse order. Every step runs
 * even when an earlier one fails, so a broken connection never leaves a database or Redis keys behind.
 */
export class CleanupStack {
  private readonly steps: { what: string; run: () => Promise<unknown> }[] = [];

  push(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
  }

  /** Runs every step once, newest first; returns the steps that failed, with their reasons. */
  async runAll(): Promise<string[]> {
    const failures: string[] = [];
    for (let step = this.steps.pop(); step !== undefined; step = this.steps.pop()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return failures;
  }
}

/** Runs `work` with a teardown of its own, so one phase's jobs and workers are gone before the next starts. */
export async function inPhase<T>(
  name: string,
  logger: Logger,
  work: (cleanup: CleanupStack) => Promise<T>,
): Promise<T> {
  const cleanup = new CleanupStack();
  try {
    return await work(cleanup);
  } finally {
    for (const failure of await cleanup.runAll()) logger.warn(`${name} cleanup: ${failure}`);
  }
}
