import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { startWebhookWorker } from '../../workers/webhook-worker.js';
import type { WorkerProcessOptions } from './webhook-worker-process.js';
import { FAST_RETRIES } from './fast-retries.js';

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerProcessOptions;
const logger = createLogger('silent');
const db = createDatabase({ url: options.databaseUrl, poolSize: 2, logger });
const worker = startWebhookWorker({
  db,
  logger,
  connection: createRedis(options.redisUrl, 'worker'),
  prefix: options.prefix,
  concurrency: 5,
  allowPrivateEndpoints: true,
  retryDelaysMs: FAST_RETRIES,
  dispatch: { pollMs: 20 },
  lockDurationMs: options.lockDurationMs,
});
await worker.worker.waitUntilReady();
process.stdout.write('ready\n');
