import type { RecordedEvent } from './event-repository.js';
import type { EventRecord } from './event-record.js';

/**
 * What a duplicate is: an event with the same `account_id` and `event_id` as one that came first
 * (the upstream redelivered it, or published it twice under two job ids). Only the first is applied
 * and recorded, whatever a later copy carries; the copy changes nothing and reports `duplicate`:
 *
 * - A copy later in the same batch is not written: `writeOnce` writes the first and reports the
 *   copy `duplicate` with the suppression id the first got (null when the first suppressed nothing
 *   or was itself a duplicate). A copy of an event for an unknown account reports
 *   `unknown_account`, as its first does.
 * - A copy whose event is already stored, from an earlier batch or one committed alongside, is
 *   found by `recordEvents` through the primary key of `suppression_events`, which is this same
 *   (account_id, event_id): it records nothing and reports `duplicate` with a null suppression id,
 *   as the statement does not read the earlier record back.
 *
 * Nothing else decides it; the SQL in `recordEvents` points here where it applies the key.
 */
export function eventIdentity(record: Pick<EventRecord, 'account_id' | 'event_id'>): string {
  return `${record.account_id}\n${record.event_id}`;
}

/**
 * Writes the first of each identity in one `write` and reports a result for every record, in
 * order: `write` sees distinct events only, as `recordEvents` requires.
 */
export async function writeOnce(
  records: readonly EventRecord[],
  write: (distinct: EventRecord[]) => Promise<RecordedEvent[]>,
): Promise<RecordedEvent[]> {
  const firstIndex = new Map<string, number>();
  const distinct: EventRecord[] = [];
  for (const record of records) {
    const identity = eventIdentity(record);
    if (!firstIndex.has(identity)) {
      firstIndex.set(identity, distinct.length);
      distinct.push(record);
    }
  }
  const written = await write(distinct);
  return records.map((record) => {
    const position = firstIndex.get(eventIdentity(record)) as number;
    const result = written[position] as RecordedEvent;
    const isCopy = distinct[position] !== record && result.outcome !== 'unknown_account';
    return isCopy ? { outcome: 'duplicate', suppression_id: result.suppression_id } : result;
  });
}
