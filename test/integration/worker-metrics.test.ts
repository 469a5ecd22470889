import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/batches/batch-schema.js';
import { createLogger } from '../../src/logger.js';
import { BATCH_OUTCOMES, createMetrics, type Metrics } from '../../src/metrics.js';
import { BATCHES_QUEUE, EVENTS_QUEUE } from '../../src/queues.js';
import { startBatchWorker, type BatchWorker } from '../../workers/batch-worker.js';
import { startEventWorker, type EventWorker } from '../../workers/event-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { createAccountKey, uniqueEmails } from '../support/test-app.js';
import { complaintEvent } from '../support/test-events.js';
import { createTestQueue, eventually, settled, type TestQueue } from '../support/test-queue.js';

let database: TestDatabase;
let events: TestQueue;
let batches: TestQueue;
let metrics: Metrics;
let eventWorker: EventWorker;
let batchWorker: BatchWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  events = await createTestQueue(EVENTS_QUEUE);
  batches = await createTestQueue(BATCHES_QUEUE);
  metrics = createMetrics();
  const logger = createLogger('silent');
  eventWorker = startEventWorker({
    db: database.db,
    logger,
    connection: events.connection,
    prefix: events.prefix,
    concurrency: 5,
    metrics,
  });
  batchWorker = startBatchWorker({
    db: database.db,
    logger,
    connection: batches.connection,
    prefix: batches.prefix,
    metrics,
  });
});

afterAll(async () => {
  await eventWorker?.close();
  await batchWorker?.close();
  await events?.cleanup();
  await batches?.cleanup();
  await database?.drop();
});

async function counter(name: string, outcome: string): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  return metric.values.find((value) => value.labels['outcome'] === outcome)?.value ?? 0;
}

describe('worker metrics', () => {
  it('when event jobs complete or fail, then suppression_events_processed_total counts them by outcome', async () => {
    const { accountId } = await createAccountKey(database.db);
    const [email] = uniqueEmails(1);
    const ok = await events.queue.add('complaint', complaintEvent(accountId, email!));
    const { job, state } = await settled(events.queue, ok.id!);
    expect(state).toBe('completed');
    const outcome = (job.returnvalue as { outcome: string }).outcome;
    await eventually(
      async () => (await counter('suppression_events_processed_total', outcome)) === 1,
      5000,
      'outcome counted',
    );

    const bad = await events.queue.add('complaint', { nonsense: true }, { attempts: 1 });
    expect((await settled(events.queue, bad.id!)).state).toBe('failed');
    await eventually(
      async () => (await counter('suppression_events_processed_total', 'failed')) >= 1,
      5000,
      'failure counted',
    );
  });

  it('when a batch job completes, then suppression_batch_entries_total counts its entries by outcome', async () => {
    const { accountId } = await createAccountKey(database.db);
    const [first, second] = uniqueEmails(2);
    const added = await batches.queue.add('add', {
      account_id: accountId,
      emails: [first, second, first, 'not-an-address'],
    });
    const { job, state } = await settled(batches.queue, added.id!);
    expect(state).toBe('completed');
    const result = job.returnvalue as BatchResult;
    expect(result.added).toBe(2);
    await eventually(
      async () => (await counter('suppression_batch_entries_total', 'added')) === 2,
      5000,
      'entries counted',
    );
    for (const outcome of BATCH_OUTCOMES) {
      expect(await counter('suppression_batch_entries_total', outcome)).toBe(result[outcome]);
    }
  });
});
