import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { startWebhookWorker } from '../../workers/webhook-worker.js';
import type { WorkerProcessOptions } from './webhook-worker-process.js';
import { FAST_RETRIES } from './fast-retries.js';
import { queueConfig } from './test-config.js';

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerProcessOptions;
const logger = createLogger('silent');
const db = createDatabase({ url: options.databaseUrl, poolSize: 2, logger });
const worker = startWebhookWorker(
  queueConfig(options.prefix, { WEBHOOK_DELIVERY_CONCURRENCY: '5', WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' }),
  { db, logger, connection: createRedis(options.redisUrl, 'worker') },
  { retryDelaysMs: FAST_RETRIES, dispatch: { pollMs: 20 }, lockDurationMs: options.lockDurationMs },
);
await worker.worker.waitUntilReady();
process.stdout.write('ready\n');
