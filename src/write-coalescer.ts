interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface CoalescerOptions {
  /** Flush as soon as this many items wait. */
  maxBatch: number;
  /** Flush at the latest this long after the first item of a batch arrived. */
  maxDelayMs: number;
  /**
   * Writes under way at once. While they are all busy, items gather and go out together as soon
   * as one finishes: under load batches grow by themselves, and when idle an item waits no more
   * than `maxDelayMs`.
   */
  maxInFlight: number;
  /**
   * Whether a failed write is worth retrying in halves: true for an error one item can cause (text
   * the database refuses), false for one that fails every write alike (the database away). Without
   * it, a failed write fails every item it carried.
   */
  isolateFailures?: (error: unknown) => boolean;
}

/**
 * Gathers items submitted by concurrent callers into one write: each caller's promise settles
 * only after the write that carried its item has finished. Items of many callers (many accounts)
 * share a write, so one bad item must not fail the others: a write that fails with an error
 * `isolateFailures` accepts is retried in halves, down to the single items, so the bad item fails
 * alone with its reason and the rest commit, at the cost of about two writes per halving.
 * Batches may be in flight side by side; `drain` waits for every one. It knows nothing of queues
 * or tables, so it lives in the core where any entry point may use it.
 */
export class WriteCoalescer<I, O> {
  private pending: Pending<I, O>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly options: CoalescerOptions,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.options.maxBatch) this.flush();
      else if (this.inFlight.size < this.options.maxInFlight)
        this.timer ??= setTimeout(() => this.flush(), this.options.maxDelayMs);
    });
  }

  /** Writes what is waiting now, and waits for every write under way. */
  async drain(): Promise<void> {
    this.flush();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const done = this.run(batch).finally(() => {
      this.inFlight.delete(done);
      // What gathered while every slot was busy has waited long enough.
      if (this.pending.length > 0 && this.timer === undefined) this.flush();
    });
    this.inFlight.add(done);
  }

  private async run(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index] as O));
    } catch (error) {
      if (batch.length > 1 && this.options.isolateFailures?.(error) === true) {
        const half = Math.ceil(batch.length / 2);
        await this.run(batch.slice(0, half));
        await this.run(batch.slice(half));
        return;
      }
      for (const entry of batch) entry.reject(error);
    }
  }
}
