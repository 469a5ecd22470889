export interface Deadline {
  /** Aborted when the time is up; its reason is an Error that says what did not finish in time. */
  readonly signal: AbortSignal;
  clear(): void;
}

/**
 * Bounds a benchmark run: a hung worker or an unreachable service ends in a clear message instead
 * of a process that waits forever.
 */
export function startDeadline(limitMs: number, what: string): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new Error(`${what} did not finish within ${Math.round(limitMs / 1000)} s; aborted`));
  }, limitMs);
  // The timer alone must not keep a finished process alive.
  timer.unref();
  return {
    signal: controller.signal,
    clear: () => clearTimeout(timer),
  };
}

/** Settles as `work` does, or rejects with the deadline's error as soon as the time is up. */
export function beforeDeadline<T>(deadline: Deadline, work: Promise<T>): Promise<T> {
  const { signal } = deadline;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
