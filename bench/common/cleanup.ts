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
