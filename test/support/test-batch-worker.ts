import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { BATCHES_QUEUE } from '../../src/queues.js';
import { startBatchWorker, type BatchWorker } from '../../workers/batch-worker.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { createTestQueue, type TestQueue } from './test-queue.js';

export interface TestBatchWorker {
  readonly database: TestDatabase;
  readonly batches: TestQueue;
  readonly worker: BatchWorker;
}

/** For the whole test file: a database and a batches queue of its own, and the real batch worker on them. */
export function useBatchWorker(): TestBatchWorker {
  const setup = {} as { database: TestDatabase; batches: TestQueue; worker: BatchWorker };
  beforeAll(async () => {
    [setup.database, setup.batches] = await Promise.all([createTestDatabase(), createTestQueue(BATCHES_QUEUE)]);
    setup.worker = startBatchWorker({
      db: setup.database.db,
      logger: createLogger('silent'),
      connection: setup.batches.connection,
      prefix: setup.batches.prefix,
    });
    await setup.worker.worker.waitUntilReady();
  });
  afterAll(async () => {
    await setup.worker?.close();
    await setup.batches?.cleanup();
    await setup.database?.drop();
  });
  return setup;
}
