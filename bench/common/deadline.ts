export interface Deadline {
  /** Aborted when the time is up; its reason is an Error that says what did not finish in time. */
  readonly signal: AbortSignal;
  /** When the time is up, in epoch milliseconds. */
  readonly endsAt: number;
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
    endsAt: Date.now() + limitMs,
    clear: () => clearTimeout(timer),
  };
}

/**
 * A deadline inside `parent` that ends at `endsAt` or with the parent, whichever comes first: one
 * block's share of a run.
 */
export function deadlineWithin(parent: Deadline, endsAt: number, what: string): Deadline {
  const own = startDeadline(Math.max(0, Math.min(endsAt, parent.endsAt) - Date.now()), what);
  const onParent = () => own.clear();
  const signal = AbortSignal.any([parent.signal, own.signal]);
  parent.signal.addEventListener('abort', onParent, { once: true });
  return {
    signal,
    endsAt: Math.min(endsAt, parent.endsAt),
    clear: () => {
      own.clear();
      parent.signal.removeEventListener('abort', onParent);
    },
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
