import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { createBatchProducer } from '../src/batches/batch-producer.js';
import { createReclassificationQueue } from '../src/bounces/reclassification-queue.js';
import { hasUsableApiKey } from '../src/accounts/api-key-repository.js';
import { startCheckFilter } from '../src/check-filter/check-filter.js';
import { filterCounters } from '../src/check-filter/filter-counters.js';
import { createEventProducer } from '../src/events/event-producer.js';
import { createMailProducer } from '../src/mail/messages/mail-producer.js';
import { BATCHES_QUEUE, EVENTS_QUEUE, MAIL_QUEUE, MAINTENANCE_QUEUE } from '../src/queues.js';
import { createRedis, redisEndpoint } from '../src/redis.js';
import { createDeliveryQueue, queueDeliveries } from '../src/webhooks/delivery-queue.js';
import type { Runtime } from '../src/runtime.js';
import { createApp } from './app.js';
import { builtConsoleDir } from './console/console-dir.js';
import { listen, type RunningServer } from './server.js';
import { producerSettings } from '../src/producer-queue.js';

/**
 * Serves the HTTP API of a runtime on the configured host and port. Its `close` is a stop: `/ready`
 * answers 503 and every answer closes its connection, for SHUTDOWN_DELAY_MS while requests are
 * still served; then the listener closes and the requests in flight finish.
 */
export async function startApi({ config, logger, db, metrics, replicas }: Runtime): Promise<RunningServer> {
  let stopping = false;
  // Rate limiting and idempotency keys: a fail-fast client, so an outage answers at once.
  const redis = createRedis(redisEndpoint(config), 'request');
  redis.on('error', (error: unknown) => logger.warn({ err: error }, 'Redis (requests) connection error'));
  // Replayed webhook deliveries are queued over the fail-fast client too: when Redis is down the
  // replay still answers, and the worker's sweeper queues it.
  const deliveryQueue = createDeliveryQueue(redis, config.QUEUE_PREFIX);
  // Queue depth in /metrics and the dashboard read every queue over the same fail-fast client.
  const queues: Queue[] = [
    ...[EVENTS_QUEUE, BATCHES_QUEUE, MAINTENANCE_QUEUE, MAIL_QUEUE].map(
      (name) => new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX }),
    ),
    deliveryQueue,
  ];
  for (const queue of queues)
    queue.on('error', (error) => logger.debug({ err: error, queue: queue.name }, 'queue client error'));
  // The API's producers: each job they queue waits for REDIS_WAIT_REPLICAS replicas to hold it.
  const producing = { connection: redis, ...producerSettings(config) };
  // Feed events and those of `POST /events` go through the producer every upstream uses, on the
  // same fail-fast client: an outage answers 503 at once, and the sender retries.
  const producer = createEventProducer(producing);
  // Imports queue their batch jobs on it too: an import started while Redis is down answers 503.
  const batches = createBatchProducer(producing);
  const reclassifications = createReclassificationQueue(producing);
  // Uploaded mail messages too: a message handed in while Redis is down answers 503, and is sent again.
  const mail = createMailProducer(producing);
  metrics.collectProcessMetrics();
  // Built in the background from the table: until it is, checks ask the database, and /ready does not wait.
  const checkFilter =
    config.CHECK_FILTER === 'on'
      ? startCheckFilter({
          url: config.DATABASE_URL,
          applicationName: 'suppression-list-api',
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          db,
          logger,
          counters: filterCounters(metrics),
          cacheEntries: config.CHECK_CACHE_ENTRIES,
        })
      : undefined;
  if (checkFilter) metrics.trackCheckFilter(checkFilter);
  // An app given no CONSOLE_DIR serves no console (the tests' apps); the API process serves, when it
  // is unset, the build next to its own compiled modules, which only it can locate.
  const appConfig = { ...config, CONSOLE_DIR: config.CONSOLE_DIR ?? builtConsoleDir() };
  const app = createApp(appConfig, {
    db,
    replicas,
    logger,
    redis,
    metrics,
    queues,
    publishFeedEvents: (events) => producer.publishParsed(events),
    publishEvents: (events) => producer.publishParsed(events),
    queueDeliveries: (due) => queueDeliveries(deliveryQueue, due),
    imports: batches,
    reclassifications,
    mail,
    checkFilter,
    stopping: () => stopping,
  });
  const listening = await listen(app, config.HOST, config.PORT);
  const running: RunningServer = {
    ...listening,
    close: async () => {
      stopping = true;
      if (config.SHUTDOWN_DELAY_MS > 0) {
        logger.info({ delayMs: config.SHUTDOWN_DELAY_MS }, 'answering /ready with 503 before the listener closes');
        await sleep(config.SHUTDOWN_DELAY_MS);
      }
      try {
        await listening.close();
      } finally {
        await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
        await producer.close().catch(() => undefined);
        await batches.close().catch(() => undefined);
        await reclassifications.close().catch(() => undefined);
        await mail.close().catch(() => undefined);
        await checkFilter?.close();
        await redis.quit().catch(() => redis.disconnect());
      }
    },
  };
  logger.info({ url: running.url }, 'API listening');
  if (config.NODE_ENV !== 'production' && !(await hasUsableApiKey(db))) {
    process.stdout.write(
      `\nNo API key exists yet. Create one with:\n\n  npm run cli -- keys create --account <name>\n\nthen call ${running.url}/suppressions with "Authorization: Bearer <token>".\n\n`,
    );
  }
  return running;
}
