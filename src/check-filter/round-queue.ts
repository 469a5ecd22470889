/**
 * Rounds that run one at a time, shared by whoever waits: a caller gets the result of a round that
 * began after it asked. The round running when it asks began before, so it takes the next one,
 * which begins as soon as the running one ends, with every caller that came meanwhile. Under load
 * the rounds run back to back, one statement serving all the checks of its time, and a caller
 * waits about one round.
 */
export interface RoundQueue<T> {
  /** The result of a round that begins after this call. */
  fresh(): Promise<T>;
  /** Starts a round now unless one runs: the idle rounds. */
  poke(): void;
  readonly running: boolean;
}

export function roundQueue<T>(round: () => Promise<T>): RoundQueue<T> {
  let running: Promise<T> | undefined;
  let waiting: { promise: Promise<T>; resolve: (value: Promise<T>) => void } | undefined;

  const start = (): Promise<T> => {
    const current = round().finally(() => {
      running = undefined;
      const next = waiting;
      waiting = undefined;
      if (next) next.resolve(start());
    });
    running = current;
    return current;
  };

  return {
    fresh() {
      if (!running) return start();
      if (!waiting) {
        let resolve!: (value: Promise<T>) => void;
        const promise = new Promise<T>((done) => (resolve = done));
        waiting = { promise, resolve };
      }
      return waiting.promise;
    },
    poke() {
      if (!running) void start();
    },
    get running() {
      return running !== undefined;
    },
  };
}
