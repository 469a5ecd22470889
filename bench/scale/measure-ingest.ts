/** The scale benchmark's ingest: event batches through the service's recordEventBatch under a soft-bounce rule. */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseSuppressionEvent, type SuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { emailOf } from './rows.js';
import type { StepContext, StepFigures } from './step.js';

const INGEST_BATCH = 500;

/**
 * Batch `batch` of the ingest: 40 % hard bounces of new addresses, 30 % soft bounces of entries on
 * the list, 30 % soft bounces of new addresses that each get about three (and so cross the threshold).
 */
export function ingestBatch(ctx: StepContext, batch: number): SuppressionEvent[] {
  const accounts = ctx.accountIds.length;
  const softPool = Math.max(1, Math.floor((ctx.events * 0.3) / 3));
  const occurredAt = new Date().toISOString();
  return Array.from({ length: INGEST_BATCH }, (_, k) => {
    const n = batch * INGEST_BATCH + k;
    const roll = Math.random();
    let index: number;
    let email: string;
    if (roll < 0.4) {
      index = n;
      email = `ingest${ctx.size}.${n}@${n % 2 === 0 ? 'gmail.com' : 'mail.company77.com'}`;
    } else if (roll < 0.7) {
      index = Math.floor(Math.random() * ctx.size);
      email = emailOf(index);
    } else {
      index = n % softPool;
      email = `soft${ctx.size}.${index}@outlook.com`;
    }
    const hard = roll < 0.4;
    return parseSuppressionEvent({
      account_id: ctx.accountIds[index % accounts],
      event_id: `scale-${ctx.size}-${n}-${randomUUID()}`,
      email,
      source_id: randomUUID(),
      occurred_at: occurredAt,
      type: 'bounce',
      bounce: hard
        ? {
            type: 'permanent',
            sub_type: 'general',
            status: '5.1.1',
            diagnostic: `smtp; 550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table`,
          }
        : {
            type: 'transient',
            sub_type: 'mailbox_full',
            status: '4.2.2',
            diagnostic: 'smtp; 452 4.2.2 Mailbox full, try again later',
          },
    });
  });
}

/** `ctx.events` events through recordEventBatch, one batch at a time, against the same loop writing nothing. */
export async function measureIngest(ctx: StepContext): Promise<StepFigures['ingest']> {
  const batches = Math.ceil(ctx.events / INGEST_BATCH);
  const noopStarted = performance.now();
  let made = 0;
  for (let batch = 0; batch < batches; batch += 1) made += ingestBatch(ctx, batch).length;
  const noopMs = performance.now() - noopStarted;
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  for (let batch = 0; batch < batches; batch += 1) {
    for (const result of await recordEventBatch(ctx.db, ingestBatch(ctx, batch)))
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
  }
  const ms = performance.now() - started;
  return {
    events: made,
    eventsPerSecond: Math.round(made / (ms / 1000)),
    noopEventsPerSecond: Math.round(made / (noopMs / 1000)),
    outcomes,
  };
}
