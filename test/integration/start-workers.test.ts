import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { BATCHES_QUEUE, EVENTS_QUEUE, MAINTENANCE_QUEUE } from '../../src/queues.js';
import { WEBHOOK_DELIVERIES_QUEUE } from '../../src/webhooks/delivery-queue.js';
import { startWorkers } from '../../workers/start-workers.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
const queues: Queue[] = [];
afterAll(async () => {
  // The workers' keys go with the queues, so no prefix is left behind in Redis.
  for (const queue of queues) await queue.obliterate({ force: true });
  await Promise.all(queues.map((queue) => queue.close()));
});

/** How many workers are connected to each queue under this prefix. */
async function workersPerQueue(prefix: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of [EVENTS_QUEUE, BATCHES_QUEUE, MAINTENANCE_QUEUE, WEBHOOK_DELIVERIES_QUEUE]) {
    const queue = new Queue(name, { connection: { url: inject('redisUrl') }, prefix });
    queues.push(queue);
    counts[name] = (await queue.getWorkers()).length;
  }
  return counts;
}

describe('which workers a process runs', () => {
  it.each([
    // The maintenance worker (the expiry sweep) runs wherever the batch worker does.
    [
      'events,batches',
      { [EVENTS_QUEUE]: 1, [BATCHES_QUEUE]: 1, [MAINTENANCE_QUEUE]: 1, [WEBHOOK_DELIVERIES_QUEUE]: 0 },
    ],
    ['events', { [EVENTS_QUEUE]: 1, [BATCHES_QUEUE]: 0, [MAINTENANCE_QUEUE]: 0, [WEBHOOK_DELIVERIES_QUEUE]: 0 }],
    ['webhooks', { [EVENTS_QUEUE]: 0, [BATCHES_QUEUE]: 0, [MAINTENANCE_QUEUE]: 0, [WEBHOOK_DELIVERIES_QUEUE]: 1 }],
    ['', { [EVENTS_QUEUE]: 1, [BATCHES_QUEUE]: 1, [MAINTENANCE_QUEUE]: 1, [WEBHOOK_DELIVERIES_QUEUE]: 1 }],
  ])('when WORKERS is "%s", then exactly those queues have a worker', async (workers, expected) => {
    const prefix = `test-${randomBytes(5).toString('hex')}`;
    const config = loadConfig({
      DATABASE_URL: database.url,
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: prefix,
      WORKERS: workers,
    });
    const running = await startWorkers({
      config,
      logger: createLogger('silent'),
      db: database.db,
      metrics: createMetrics(),
    });
    try {
      expect(await workersPerQueue(prefix)).toEqual(expected);
    } finally {
      await running.close();
    }
  });
});
