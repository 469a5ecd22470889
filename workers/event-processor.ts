import type { SpanContext } from '@opentelemetry/api';
import { UnrecoverableError, type Job } from 'bullmq';
import { isDatabaseUnavailable } from '../src/db/connection-errors.js';
import { isRefusedValue } from '../src/db/data-errors.js';
import type { Database } from '../src/db/database.js';
import type { EventOutcome, RecordedEvent } from '../src/events/event-repository.js';
import type { BounceClassifier } from '../src/events/event-decision.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEvent } from '../src/events/event-schema.js';
import { recordEventBatch } from '../src/events/record-event-batch.js';
import { batchSpan } from '../src/tracing/batch-span.js';
import { activeSpanContext, tracingEnabled } from '../src/tracing/tracing.js';
import { WriteCoalescer, type CoalescerOptions } from '../src/write-coalescer.js';

export interface EventJobResult {
  outcome: Exclude<EventOutcome, 'unknown_account'>;
  suppression_id: string | null;
  /** For a bounce that was not a duplicate: the category the classifier gave it. */
  category?: string;
}

/** An event waiting for its batch, with the span of its job when tracing is on. */
interface Submitted {
  event: SuppressionEvent;
  parent: SpanContext | undefined;
}

export interface EventProcessor {
  process(job: Job): Promise<EventJobResult>;
  /** Writes whatever is still gathered and waits for writes under way. */
  drain(): Promise<void>;
}

/**
 * Turns one `suppression-events` job into a suppression. Invalid data, a value the database refuses
 * and unknown accounts fail the job for good (UnrecoverableError) with the reason; any other
 * failure (the database away, say) is thrown as is, so BullMQ retries it with backoff. Concurrent
 * jobs are written together, one statement per batch, by recordEventBatch. With tracing on, each
 * batch's write is a span inside its first event's trace, linked to the others'.
 */
export function createEventProcessor(
  db: Database,
  coalescing: CoalescerOptions,
  classify?: BounceClassifier,
): EventProcessor {
  const tracing = tracingEnabled();
  const write = (batch: Submitted[]): Promise<RecordedEvent[]> => {
    const events = batch.map((submitted) => submitted.event);
    if (!tracing) return recordEventBatch(db, events, classify);
    return batchSpan(
      'record events',
      batch.map((submitted) => submitted.parent),
      (traceparent) => recordEventBatch(db, events, classify, traceparent),
    );
  };
  // Events of many accounts share a statement: one the database refuses is found by halving and
  // fails alone, while an outage fails them all at once, to be retried.
  const coalescer = new WriteCoalescer<Submitted, RecordedEvent>(write, {
    ...coalescing,
    isolateFailures: (error) => !isDatabaseUnavailable(error),
  });

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
      let recorded: RecordedEvent;
      try {
        recorded = await coalescer.submit({ event, parent: tracing ? activeSpanContext() : undefined });
      } catch (error) {
        if (isRefusedValue(error)) throw new UnrecoverableError(`invalid event: ${(error as Error).message}`);
        throw error;
      }
      const { outcome, suppression_id, category } = recorded;
      if (outcome === 'unknown_account')
        throw new UnrecoverableError(`invalid event: account ${event.account_id} does not exist`);
      return category && outcome !== 'duplicate' ? { outcome, suppression_id, category } : { outcome, suppression_id };
    },
    drain: () => coalescer.drain(),
  };
}
