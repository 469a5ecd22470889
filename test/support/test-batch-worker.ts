import { afterAll, beforeAll } from 'vitest';
import { createBatchProducer, type BatchProducer } from '../../src/batches/batch-producer.js';
import { createLogger } from '../../src/logger.js';
import { BATCHES_QUEUE } from '../../src/queues.js';
import type { Metrics } from '../../src/metrics.js';
import { startBatchWorker, type BatchWorker } from '../../workers/batch-worker.js';
import type { TestApp } from './test-app.js';
import { queueConfig } from './test-config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { createTestQueue, type TestQueue } from './test-queue.js';

export interface TestBatchWorker {
  readonly database: TestDatabase;
  readonly batches: TestQueue;
  /** The service's own producer on the batches queue. */
  readonly producer: BatchProducer;
  readonly worker: BatchWorker;
}

/** For the whole test file: a database and a batches queue of its own, and the real batch worker on them. */
export function useBatchWorker(settings: { concurrency?: number; metrics?: Metrics } = {}): TestBatchWorker {
  const setup = {} as { database: TestDatabase; batches: TestQueue; producer: BatchProducer; worker: BatchWorker };
  beforeAll(async () => {
    [setup.database, setup.batches] = await Promise.all([createTestDatabase(), createTestQueue(BATCHES_QUEUE)]);
    setup.producer = createBatchProducer({ connection: setup.batches.redisUrl, prefix: setup.batches.prefix });
    setup.worker = startBatchWorker(
      queueConfig(setup.batches.prefix),
      {
        db: setup.database.db,
        logger: createLogger('silent'),
        connection: setup.batches.connection,
        metrics: settings.metrics,
      },
      settings.concurrency === undefined ? {} : { concurrency: settings.concurrency },
    );
    await setup.worker.worker.waitUntilReady();
  });
  afterAll(async () => {
    await setup.worker?.close();
    await setup.producer?.close();
    await setup.batches?.cleanup();
    await setup.database?.drop();
  });
  return setup;
}

/** The batch worker beside a test app, for a test that runs without it for a while. */
export interface BatchWorkerBeside {
  /** Closes the worker, which finishes its active jobs first. */
  stop(): Promise<void>;
  /** Starts the worker again once stopped, and resolves when it takes jobs. */
  start(): Promise<void>;
}

/**
 * For the whole test file: the real batch worker on a test app's own database and batches queue
 * (an app started with `queues: true`), so that the jobs the app queues (imports, batch add and
 * remove) are processed as in production.
 */
export function useBatchWorkerBeside(app: TestApp): BatchWorkerBeside {
  let worker: BatchWorker | undefined;
  async function start(): Promise<void> {
    if (worker) throw new Error('useBatchWorkerBeside(): stop() the running worker before starting another');
    worker = startBatchWorker(queueConfig(app.batches.prefix), {
      db: app.database.db,
      logger: createLogger('silent'),
      connection: app.batches.connection,
    });
    await worker.worker.waitUntilReady();
  }
  async function stop(): Promise<void> {
    const running = worker;
    worker = undefined;
    await running?.close();
  }
  beforeAll(start);
  afterAll(stop);
  return { stop, start };
}
