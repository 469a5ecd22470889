/** The checks of a run: one line each as it is decided, and the tally that decides the exit status. */
export class Results {
  passed = 0;
  failed = 0;

  ok(what: string): void {
    this.passed += 1;
    console.log(`ok   ${what}`);
  }

  fail(what: string, why: string): void {
    this.failed += 1;
    console.log(`FAIL ${what}: ${why}`);
  }

  /** Records `what` as passed when `why` is undefined, else as failed for that reason. */
  check(what: string, why: string | undefined): boolean {
    if (why === undefined) this.ok(what);
    else this.fail(what, why);
    return why === undefined;
  }
}
