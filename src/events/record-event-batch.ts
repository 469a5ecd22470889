import type { Queryable } from '../db/database.js';
import { recordEvents, type RecordedEvent } from '../db/event-repository.js';
import { writeOnce } from './duplicate-events.js';
import { toEventRecord } from './event-record.js';
import type { SuppressionEvent } from './event-schema.js';

/**
 * Applies validated events together, written by one recordEvents call, and reports each one's outcome, in
 * order: suppressed, already_suppressed, not_suppressed, duplicate (see duplicate-events.ts), or
 * unknown_account, which the caller turns into a failure of its own.
 */
export function recordEventBatch(db: Queryable, events: readonly SuppressionEvent[]): Promise<RecordedEvent[]> {
  return writeOnce(events.map(toEventRecord), (distinct) => recordEvents(db, distinct));
}
