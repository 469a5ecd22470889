import { UnrecoverableError, type Job } from 'bullmq';
import type { Database } from '../src/db/database.js';
import { recordEvents, type EventOutcome, type RecordedEvent } from '../src/db/event-repository.js';
import { toEventRecord, type EventRecord } from '../src/events/event-record.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEvent } from '../src/events/event-schema.js';
import { WriteCoalescer, type CoalescerOptions } from '../src/write-coalescer.js';

export interface EventJobResult {
  outcome: Exclude<EventOutcome, 'unknown_account'>;
  suppression_id: string | null;
}

const keyOf = (record: EventRecord): string => `${record.account_id}\n${record.event_id}`;

/**
 * Writes a batch in one statement. The same event twice in one batch (two job ids, one event) is
 * written once; the later copies are duplicates, as they would be in separate batches.
 */
async function writeBatch(db: Database, records: EventRecord[]): Promise<RecordedEvent[]> {
  const firstIndex = new Map<string, number>();
  const distinct: EventRecord[] = [];
  for (const record of records) {
    if (!firstIndex.has(keyOf(record))) {
      firstIndex.set(keyOf(record), distinct.length);
      distinct.push(record);
    }
  }
  const written = await recordEvents(db, distinct);
  return records.map((record) => {
    const position = firstIndex.get(keyOf(record)) as number;
    const result = written[position] as RecordedEvent;
    const isCopy = distinct[position] !== record && result.outcome !== 'unknown_account';
    return isCopy ? { outcome: 'duplicate', suppression_id: result.suppression_id } : result;
  });
}

export interface EventProcessor {
  process(job: Job): Promise<EventJobResult>;
  /** Writes whatever is still gathered and waits for writes under way. */
  drain(): Promise<void>;
}

/**
 * Turns one `suppression-events` job into a suppression. Invalid data and unknown accounts fail the
 * job for good (UnrecoverableError) with the reason; any other failure (the database away, say)
 * is thrown as is, so BullMQ retries it with backoff.
 */
export function createEventProcessor(db: Database, coalescing: CoalescerOptions): EventProcessor {
  const coalescer = new WriteCoalescer<EventRecord, RecordedEvent>((records) => writeBatch(db, records), coalescing);

  return {
    async process(job) {
      let event: SuppressionEvent;
      try {
        event = parseSuppressionEvent(job.data);
      } catch (error) {
        if (error instanceof InvalidEventError) throw new UnrecoverableError(error.message);
        throw error;
      }
      if (job.name !== event.type) {
        throw new UnrecoverableError(`invalid event: job name "${job.name}" does not match type "${event.type}"`);
      }
      const { outcome, suppression_id } = await coalescer.submit(toEventRecord(event));
      if (outcome === 'unknown_account')
        throw new UnrecoverableError(`invalid event: account ${event.account_id} does not exist`);
      return { outcome, suppression_id };
    },
    drain: () => coalescer.drain(),
  };
}
