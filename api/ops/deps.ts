import type { Queue } from 'bullmq';
import type { Database } from '../../src/db/database.js';
import type { ReadReplicas } from '../../src/db/read-replicas.js';
import type { Metrics } from '../../src/metrics.js';
import type { RedisClient } from '../../src/redis.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';

/** What `/health`, `/ready` and `/metrics` need: all a process without the API serves. */
export type ProbeDeps = Pick<
  OpsDeps,
  'db' | 'metrics' | 'redis' | 'replicas' | 'stopping' | 'metricsToken' | 'failureLimit'
>;

/** What the operations endpoints talk to. */
export interface OpsDeps {
  db: Database;
  metrics: Metrics;
  /** Answers PING for `/ready`; without it readiness checks the database only. */
  redis?: RedisClient | undefined;
  /** DATABASE_READ_URL's replicas: each one's state in `/ready` and the metrics, never a reason for 503. */
  replicas?: ReadReplicas | undefined;
  /** Whether the process is stopping: `/ready` then answers 503 whatever its checks say. */
  stopping?: (() => boolean) | undefined;
  /** Both queues: shown in the dashboard. */
  queues?: readonly Queue[] | undefined;
  /** When set, `/metrics` requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
  /** When set, the dashboard is served at /admin/queues behind this token; unset, the path is 404. */
  adminToken?: string | undefined;
  /**
   * Wrong or missing metrics and admin tokens count as failed authentications of the client
   * address; no limit when absent.
   */
  failureLimit?: AuthFailureLimit | undefined;
  /**
   * The reference served at `/openapi.json`, passed in from above: the document describes every
   * feature, this one among them, so no feature makes it.
   */
  document: () => object;
}
