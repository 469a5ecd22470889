import { createRedis } from '../src/redis.js';
import type { Runtime } from '../src/runtime.js';
import { startBatchWorker } from './batch-worker.js';
import { startEventWorker } from './event-worker.js';
import { startWebhookWorker } from './webhook-worker.js';

export interface RunningWorkers {
  close(): Promise<void>;
}

/** Runs the queue workers of a runtime until closed. */
export async function startWorkers({ config, logger, db, metrics }: Runtime): Promise<RunningWorkers> {
  const connection = createRedis(config.REDIS_URL, 'worker');
  const events = startEventWorker({
    db,
    logger,
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    metrics,
  });
  const batches = startBatchWorker({ db, logger, connection, prefix: config.QUEUE_PREFIX, metrics });
  const webhooks = startWebhookWorker({
    db,
    logger,
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
    allowPrivateEndpoints: config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS,
    metrics,
  });
  await Promise.all([
    events.worker.waitUntilReady(),
    batches.worker.waitUntilReady(),
    webhooks.worker.waitUntilReady(),
  ]);
  logger.info(
    { concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX },
    'event, batch and webhook workers running',
  );
  return {
    async close() {
      await Promise.all([events.close(), batches.close(), webhooks.close()]);
      await connection.quit();
    },
  };
}
