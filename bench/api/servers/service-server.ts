/**
 * The real API as `npm run start:api` runs it (openRuntime + startApi: real pool, 'request' Redis
 * client, metrics, queues), in a process of its own so its memory can be followed and the load
 * generator does not share its event loop. Configured from the environment (DATABASE_URL,
 * DATABASE_READ_URL, REDIS_URL, RATE_LIMIT_PER_SECOND, LOG_LEVEL, HOST, PORT); prints
 * `LISTENING <url>` once bound.
 */
import { closeDatabases, openRuntime, stopOnSignals } from '../../../src/runtime.js';
import { startApi } from '../../../api/start-api.js';

const runtime = await openRuntime('bench-service', { readReplicas: true });
const api = await startApi(runtime);
stopOnSignals(runtime.logger, async () => {
  await api.close();
  await closeDatabases(runtime);
});
process.stdout.write(`LISTENING ${api.url}\n`);
