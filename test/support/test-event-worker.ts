import { afterAll, afterEach, beforeAll } from 'vitest';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import { createLogger } from '../../src/logger.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import type { Metrics } from '../../src/metrics.js';
import { startEventWorker, type EventWorker } from '../../workers/event-worker.js';
import { queueConfig } from './test-config.js';
import type { TestApp } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { createTestQueue, type TestQueue } from './test-queue.js';

export interface EventWorkerSettings {
  /** WORKER_CONCURRENCY (20 unless a test says otherwise). */
  concurrency?: number;
  batchDelayMs?: number;
  metrics?: Metrics;
}

export interface TestEventWorker {
  readonly database: TestDatabase;
  readonly events: TestQueue;
  /** The service's own producer on the events queue. */
  readonly producer: EventProducer;
  /** The worker running now. */
  readonly worker: EventWorker;
  /** Closes the running worker, which finishes its active jobs first. After the test, one with the file's settings runs again. */
  stop(): Promise<void>;
  /** Starts a worker, with the file's settings overridden by these, once the last one is stopped. */
  start(settings?: EventWorkerSettings): EventWorker;
}

/** For the whole test file: a database and an events queue of its own, and the real event worker on them. */
export function useEventWorker(settings: EventWorkerSettings = {}): TestEventWorker {
  const state: { database?: TestDatabase; events?: TestQueue; producer?: EventProducer; worker?: EventWorker } = {};

  function start(overrides: EventWorkerSettings = {}): EventWorker {
    if (state.worker) throw new Error('useEventWorker(): stop() the running worker before starting another');
    const { database, events } = state;
    if (!database || !events) throw new Error('useEventWorker(): workers start only inside tests and hooks');
    const { concurrency = 20, batchDelayMs, metrics } = { ...settings, ...overrides };
    state.worker = startEventWorker(
      queueConfig(events.prefix, { WORKER_CONCURRENCY: String(concurrency) }),
      { db: database.db, logger: createLogger('silent'), connection: events.connection, metrics },
      batchDelayMs === undefined ? {} : { batchDelayMs },
    );
    return state.worker;
  }

  async function stop(): Promise<void> {
    const running = state.worker;
    state.worker = undefined;
    await running?.close();
  }

  beforeAll(async () => {
    [state.database, state.events] = await Promise.all([createTestDatabase(), createTestQueue(EVENTS_QUEUE)]);
    state.producer = createEventProducer({ connection: state.events.redisUrl, prefix: state.events.prefix });
    await start().worker.waitUntilReady();
  });
  afterEach(() => {
    // A test that stopped the worker leaves the next test the usual one.
    if (!state.worker) start();
  });
  afterAll(async () => {
    await stop();
    await state.producer?.close();
    await state.events?.cleanup();
    await state.database?.drop();
  });

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('useEventWorker(): ready only inside tests and hooks, while a worker runs');
    return value;
  };
  return {
    get database() {
      return ready(state.database);
    },
    get events() {
      return ready(state.events);
    },
    get producer() {
      return ready(state.producer);
    },
    get worker() {
      return ready(state.worker);
    },
    stop,
    start,
  };
}

/**
 * For the whole test file: the real event worker on a test app's own database and events queue
 * (an app started with `queues: true`), so that an event the app queues travels as in production.
 */
export function useEventWorkerBeside(app: TestApp, concurrency = 20): void {
  let worker: EventWorker | undefined;
  beforeAll(async () => {
    worker = startEventWorker(queueConfig(app.events.prefix, { WORKER_CONCURRENCY: String(concurrency) }), {
      db: app.database.db,
      logger: createLogger('silent'),
      connection: app.events.connection,
    });
    await worker.worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
  });
}
