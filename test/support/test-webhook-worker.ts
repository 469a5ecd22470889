import { afterAll, beforeAll } from 'vitest';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { createLogger } from '../../src/logger.js';
import { WEBHOOK_DELIVERIES_QUEUE } from '../../src/webhooks/delivery-queue.js';
import type { Webhook, WebhookEventType } from '../../src/webhooks/webhook.js';
import type { Metrics } from '../../src/metrics.js';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerTuning } from '../../workers/webhook-worker.js';
import { newAccount } from './accounts.js';
import { FAST_RETRIES } from './fast-retries.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { queueConfig } from './test-config.js';
import { createTestQueue, type TestQueue } from './test-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export interface WebhookWorkerSettings extends WebhookWorkerTuning {
  metrics?: Metrics;
}

export { FAST_RETRIES };

export interface TestWebhookWorker {
  readonly database: TestDatabase;
  readonly deliveries: TestQueue;
  readonly worker: WebhookWorker;
  /** Starts a worker with the file's settings overridden by these; the running one must be stopped first. */
  start(settings?: WebhookWorkerSettings): WebhookWorker;
  stop(): Promise<void>;
  /** A new account with a loopback receiver and an enabled webhook pointed at it, subscribed to `events`. */
  subscriber(events?: WebhookEventType[]): Promise<{ accountId: string; webhook: Webhook; receiver: WebhookReceiver }>;
}

/** For the whole test file: a database and a delivery queue of its own, and the real webhook worker on them. */
export function useWebhookWorker(settings: WebhookWorkerSettings = {}): TestWebhookWorker {
  const state: { database?: TestDatabase; deliveries?: TestQueue; worker?: WebhookWorker } = {};
  const receivers: WebhookReceiver[] = [];

  function start(overrides: WebhookWorkerSettings = {}): WebhookWorker {
    if (state.worker) throw new Error('useWebhookWorker(): stop() the running worker first');
    const { database, deliveries } = state;
    if (!database || !deliveries) throw new Error('useWebhookWorker(): workers start only inside tests and hooks');
    const { metrics, ...tuning } = { ...settings, ...overrides };
    state.worker = startWebhookWorker(
      queueConfig(deliveries.prefix, { WEBHOOK_DELIVERY_CONCURRENCY: '10', WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' }),
      { db: database.db, logger: createLogger('silent'), connection: deliveries.connection, metrics },
      {
        retryDelaysMs: FAST_RETRIES,
        dispatch: { pollMs: 20 },
        // Every worker on the queue sets how often stalled jobs are looked for; a short claim lets a
        // test see a killed worker's job taken over in a second or two.
        lockDurationMs: 1000,
        ...tuning,
      },
    );
    return state.worker;
  }

  async function stop(): Promise<void> {
    const running = state.worker;
    state.worker = undefined;
    await running?.close();
  }

  beforeAll(async () => {
    [state.database, state.deliveries] = await Promise.all([
      createTestDatabase(),
      createTestQueue(WEBHOOK_DELIVERIES_QUEUE),
    ]);
    await start().worker.waitUntilReady();
  });
  afterAll(async () => {
    await stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await state.deliveries?.cleanup();
    await state.database?.drop();
  });

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useWebhookWorker(): ready only inside tests and hooks');
    return value;
  };
  return {
    get database() {
      return ready(state.database);
    },
    get deliveries() {
      return ready(state.deliveries);
    },
    get worker() {
      return ready(state.worker);
    },
    start,
    stop,
    async subscriber(events = ['suppression.added', 'suppression.removed']) {
      const db = ready(state.database).db;
      const { accountId } = await newAccount(db);
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const webhook = await createWebhook(db, { accountId, endpoint: receiver.url, events });
      receiver.secret = webhook.signingSecret;
      return { accountId, webhook, receiver };
    },
  };
}
