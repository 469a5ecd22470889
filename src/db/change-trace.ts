import type { Queryable } from './database.js';

/**
 * Hands a trace (a W3C traceparent) to the outbox rows the rest of the caller's transaction makes:
 * the outbox trigger (migration 0019) stores it with each change, for its first delivery to continue.
 */
export async function traceChangesOf(transaction: Queryable, traceparent: string): Promise<void> {
  await transaction.query({
    text: "SELECT set_config('suppression_list.trace_context', $1, true)",
    values: [traceparent],
  });
}
