import { describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { createMetrics } from '../../src/metrics.js';
import { oldestUndeliveredChangeAge } from '../../src/webhooks/delivery-repository.js';
import { uniqueEmail } from '../support/emails.js';
import { eventually } from '../support/test-queue.js';
import { useWebhookWorker } from '../support/test-webhook-worker.js';

const metrics = createMetrics();
const hooks = useWebhookWorker({ metrics });

async function sample(name: string, outcome?: string): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  return metric.values.find((value) => outcome === undefined || value.labels['outcome'] === outcome)?.value ?? 0;
}

function addOne(accountId: string) {
  return addSuppressions(hooks.database.db, accountId, [
    { id: newId(), email: uniqueEmail(), origin: 'manual', sourceId: null },
  ]);
}

describe('webhook metrics', () => {
  it('when an attempt fails and the next succeeds, then webhook_deliveries_total counts a retry and a delivery', async () => {
    const { accountId, receiver } = await hooks.subscriber();
    receiver.answer = (_delivery, index) => (index === 0 ? 500 : 200);
    await addOne(accountId);

    await eventually(async () => (await sample('webhook_deliveries_total', 'delivered')) === 1, 15_000, 'a delivery');
    expect(await sample('webhook_deliveries_total', 'retry')).toBe(1);
    expect(await sample('webhook_deliveries_total', 'failed')).toBe(0);
  });

  it('when changes wait with no worker running, then webhook_oldest_undelivered_change_seconds gives their age, and 0 once delivered', async () => {
    metrics.trackWebhookBacklog(() => oldestUndeliveredChangeAge(hooks.database.db));
    await hooks.stop();
    const { accountId } = await hooks.subscriber();
    await addOne(accountId);
    // Made a minute old in the outbox, rather than waited for.
    await hooks.database.db.query({
      text: `UPDATE suppression_changes SET created_at = created_at - interval '1 minute'`,
    });

    expect(await sample('webhook_oldest_undelivered_change_seconds')).toBeGreaterThanOrEqual(60);
    hooks.start();
    await eventually(
      async () => (await sample('webhook_oldest_undelivered_change_seconds')) === 0,
      15_000,
      'an empty backlog',
    );
  });
});
