import type { Worker } from 'bullmq';
import type { WorkerKind } from '../src/config.js';
import { createRedis, redisEndpoint } from '../src/redis.js';
import type { Runtime } from '../src/runtime.js';
import { startBatchWorker } from './batch-worker.js';
import { startEventWorker } from './event-worker.js';
import { startMaintenanceWorker } from './maintenance-worker.js';
import { startWebhookWorker } from './webhook-worker.js';

export interface RunningWorkers {
  close(): Promise<void>;
}

interface Started {
  worker: Worker;
  close(): Promise<void>;
}

/** Runs the queue workers of a runtime that `WORKERS` names, until closed. */
export async function startWorkers({ config, logger, db, metrics }: Runtime): Promise<RunningWorkers> {
  const connection = createRedis(redisEndpoint(config), 'worker');
  const deps = { db, logger, connection, metrics };
  const starters: Record<WorkerKind, () => Started[]> = {
    events: () => [startEventWorker(config, deps)],
    // Maintenance is light and periodic: it rides along with the batches, which also write in bulk.
    batches: () => [startBatchWorker(config, deps), startMaintenanceWorker(config, deps)],
    webhooks: () => [startWebhookWorker(config, deps)],
  };
  const running = config.WORKERS.flatMap((kind) => starters[kind]());
  await Promise.all(running.map((started) => started.worker.waitUntilReady()));
  logger.info(
    { workers: config.WORKERS, concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX },
    `${config.WORKERS.join(', ')} workers running`,
  );
  return {
    async close() {
      await Promise.all(running.map((started) => started.close()));
      await connection.quit();
    },
  };
}
