/**
 * What a batch job counts, entry by entry, in the order its result lists them. The result's type, the
 * worker's empty result, the metric's `outcome` labels and the CLI's totals all derive from this list.
 */
export const BATCH_COUNTS = [
  'added',
  'already_present',
  'removed',
  'not_found',
  // Addresses the account's allowlist covers: never added.
  'allowlisted',
  // Entries a complaint put on the list, kept because the job did not say `force`.
  'protected',
  // The same address (or id) more than once in the job: counted once.
  'duplicates',
  'invalid',
] as const;

export type BatchCount = (typeof BATCH_COUNTS)[number];

export type BatchCounts = Record<BatchCount, number>;

/** Every count at 0. */
export function noBatchCounts(): BatchCounts {
  return Object.fromEntries(BATCH_COUNTS.map((name) => [name, 0])) as BatchCounts;
}

/** One count of what a job returned, as read back from the queue: 0 when it is not a number. */
export function batchCount(result: unknown, name: BatchCount): number {
  const value = typeof result === 'object' && result !== null ? (result as Partial<BatchCounts>)[name] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Adds what a job returned, as read back from the queue, to the totals. */
export function addBatchCounts(totals: BatchCounts, result: unknown): void {
  for (const name of BATCH_COUNTS) totals[name] += batchCount(result, name);
}
