import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startMaintenanceWorker, type MaintenanceWorker } from '../../workers/maintenance-worker.js';
import { queueConfig } from './test-config.js';
import type { TestApp } from './test-app.js';

/**
 * For the whole test file: the real maintenance worker on a test app's own database and
 * maintenance queue (an app started with `queues: true`), so that the reclassifications the app
 * queues run as in production. Its expiry sweep waits an hour: no test here waits on it.
 */
export function useMaintenanceWorkerBeside(app: TestApp): void {
  let worker: MaintenanceWorker | undefined;
  beforeAll(() => {
    worker = startMaintenanceWorker(
      queueConfig(app.maintenance.prefix),
      { db: app.database.db, logger: createLogger('silent'), connection: app.maintenance.connection },
      { expiryEveryMs: 3_600_000 },
    );
  });
  afterAll(async () => {
    await worker?.close();
  });
}
