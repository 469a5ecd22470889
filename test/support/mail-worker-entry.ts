import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { startEventWorker } from '../../workers/event-worker.js';
import { startMailWorker } from '../../workers/mail-worker.js';
import type { MailWorkerProcessOptions } from './mail-worker-process.js';
import { queueConfig } from './test-config.js';

const options = JSON.parse(process.argv[2] ?? '{}') as MailWorkerProcessOptions;
const logger = createLogger('silent');
const db = createDatabase({ url: options.databaseUrl, poolSize: 4, logger });
const deps = { db, logger, connection: createRedis(options.redisUrl, 'worker') };
const config = queueConfig(options.prefix, options.env);
const tuning = { lockDurationMs: options.lockDurationMs };
// What a process with WORKERS=events runs: the event worker and the mail worker beside it.
const workers = [startEventWorker(config, deps, tuning), startMailWorker(config, deps, tuning)];
await Promise.all(workers.map((started) => started.worker.waitUntilReady()));
process.stdout.write('ready\n');
