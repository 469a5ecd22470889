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

/**
 * BullMQ's lock settings: a lock of `lockDurationMs`, checked for stalls as often, so that a killed
 * worker's jobs are taken again that soon (the tests that kill workers set it); BullMQ's own 30 s
 * when unset.
 */
export function lockSettings(lockDurationMs: number | undefined): { lockDuration?: number; stalledInterval?: number } {
  return lockDurationMs === undefined ? {} : { lockDuration: lockDurationMs, stalledInterval: lockDurationMs };
}
