import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import type { Queryable } from '../../db/database.js';
import { InvalidEventError, type SuppressionEventInput } from '../../events/event-schema.js';
import { WriteCoalescer, type CoalescerOptions } from '../../write-coalescer.js';
import { mailMessagesRead, recordMailMessages, type MailMessageRow } from './mail-message-repository.js';

/** The record of the messages read, as the mail reader asks it. */
export interface MailMessageStore {
  isRead(digest: string): Promise<boolean>;
  record(row: MailMessageRow): Promise<void>;
}

/**
 * Each statement and each Redis call costs a round trip and its system calls, which on a busy host
 * cost more than the reading itself: the messages a worker reads side by side share them. A batch
 * goes out once the previous one is answered, or after a millisecond when none is under way.
 */
const COALESCING: CoalescerOptions = { maxBatch: 200, maxDelayMs: 1, maxInFlight: 1 };

/** The mail messages' record, the reads and the writes of concurrent readers each in one statement. */
export function batchedMailMessageStore(db: Queryable): MailMessageStore {
  // A value one row makes the database refuse fails that row alone; an outage fails them all.
  const isolateFailures = (error: unknown) => !isDatabaseUnavailable(error);
  const reads = new WriteCoalescer<string, boolean>(
    async (digests) => {
      const read = await mailMessagesRead(db, digests);
      return digests.map((digest) => read.has(digest));
    },
    { ...COALESCING, isolateFailures },
  );
  const writes = new WriteCoalescer<MailMessageRow, void>(
    async (rows) => {
      await recordMailMessages(db, rows);
      return rows.map(() => undefined);
    },
    { ...COALESCING, isolateFailures },
  );
  return { isRead: (digest) => reads.submit(digest), record: (row) => writes.submit(row) };
}

/**
 * Publishes the events of concurrent readers in one call of `publishMany`; an event it refuses
 * (InvalidEventError) fails its own message alone, and Redis away fails them all, to be retried.
 */
export function batchedPublisher(
  publishMany: (events: readonly SuppressionEventInput[]) => Promise<unknown>,
): (events: readonly SuppressionEventInput[]) => Promise<void> {
  const publishes = new WriteCoalescer<readonly SuppressionEventInput[], void>(
    async (lists) => {
      await publishMany(lists.flat());
      return lists.map(() => undefined);
    },
    { ...COALESCING, isolateFailures: (error) => error instanceof InvalidEventError },
  );
  return (events) => publishes.submit(events);
}
