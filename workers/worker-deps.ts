import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import type { Metrics } from '../src/metrics.js';
import type { RedisClient } from '../src/redis.js';

/** What every worker runs on; its settings come from the parsed `Config`. */
export interface WorkerDeps {
  db: Database;
  logger: Logger;
  /** A connection with `maxRetriesPerRequest: null`; BullMQ duplicates it for blocking reads. */
  connection: RedisClient;
  /** Where the worker counts what it did; none in tools that do not export metrics. */
  metrics?: Metrics | undefined;
}
