import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/batches/batch-schema.js';
import { BATCH_COUNTS } from '../../src/batches/batch-counts.js';
import { createMetrics } from '../../src/metrics.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useBatchWorker } from '../support/test-batch-worker.js';
import { useEventWorker } from '../support/test-event-worker.js';
import { complaintEvent } from '../support/test-events.js';
import { eventually, settled } from '../support/test-queue.js';

// Both workers count into one registry, as they do in one worker process.
const metrics = createMetrics();
const eventWorker = useEventWorker({ concurrency: 5, metrics });
const batchWorker = useBatchWorker({ metrics });

async function counter(name: string, outcome: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  const matches = metric.values.filter(
    (value) =>
      value.labels['outcome'] === outcome &&
      Object.entries(labels).every(([label, want]) => value.labels[label] === want),
  );
  return matches.reduce((sum, value) => sum + value.value, 0);
}

describe('worker metrics', () => {
  it('when event jobs complete or fail, then suppression_events_processed_total counts them by outcome', async () => {
    const { accountId } = await newAccount(eventWorker.database.db);
    const ok = await eventWorker.events.queue.add('complaint', complaintEvent(accountId, uniqueEmail()));
    const { job, state } = await settled(eventWorker.events.queue, ok.id!);

    expect(state).toBe('completed');
    const outcome = (job.returnvalue as { outcome: string }).outcome;
    await eventually(
      async () => (await counter('suppression_events_processed_total', outcome)) === 1,
      5000,
      'outcome counted',
    );

    const scoped = await eventWorker.events.queue.add('complaint', {
      ...complaintEvent(accountId, uniqueEmail()),
      scope: 'newsletter',
    });
    expect((await settled(eventWorker.events.queue, scoped.id!)).state).toBe('completed');
    await eventually(
      async () => (await counter('suppression_events_processed_total', 'suppressed', { message_scope: 'named' })) === 1,
      5000,
      'scoped outcome counted',
    );
    expect(await counter('suppression_events_processed_total', outcome, { message_scope: 'none' })).toBe(1);

    const bad = await eventWorker.events.queue.add('complaint', { nonsense: true }, { attempts: 1 });
    expect((await settled(eventWorker.events.queue, bad.id!)).state).toBe('failed');
    await eventually(
      async () => (await counter('suppression_events_processed_total', 'failed')) >= 1,
      5000,
      'failure counted',
    );
  });

  it('when a batch job completes, then suppression_batch_entries_total counts its entries by outcome', async () => {
    const { accountId } = await newAccount(batchWorker.database.db);
    const [first, second] = uniqueEmails(2);
    const added = await batchWorker.batches.queue.add('add', {
      account_id: accountId,
      emails: [first, second, first, 'not-an-address'],
    });
    const { job, state } = await settled(batchWorker.batches.queue, added.id!);

    expect(state).toBe('completed');
    const result = job.returnvalue as BatchResult;
    expect(result.added).toBe(2);
    await eventually(
      async () => (await counter('suppression_batch_entries_total', 'added')) === 2,
      5000,
      'entries counted',
    );
    for (const outcome of BATCH_COUNTS) {
      expect(await counter('suppression_batch_entries_total', outcome)).toBe(result[outcome]);
    }
  });
});
