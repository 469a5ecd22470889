import { Router } from 'express';
import { defineFeature, mountFeature } from '../http/endpoints.js';
import { mountQueueDashboard } from './admin.js';
import type { OpsDeps } from './deps.js';
import { docsAssets, docsEndpoint, openApiEndpoint } from './docs.js';
import { healthEndpoint, readinessChecks, readyEndpoint } from './health.js';
import { metricsEndpoint } from './metrics.js';

/** Health, readiness, metrics and the reference: the operations without an API key, at the root. */
export const opsFeature = defineFeature<OpsDeps>('', [
  healthEndpoint,
  readyEndpoint,
  metricsEndpoint,
  openApiEndpoint,
  docsEndpoint,
]);

/**
 * The feature's router, with what is not an endpoint of the reference: the reference page's assets
 * under `/docs/` and, when an admin token is configured, the queue dashboard.
 */
export function opsRouter(deps: OpsDeps): Router {
  const { db, metrics } = deps;
  for (const queue of deps.queues ?? []) metrics.trackQueue(queue);
  metrics.trackPool(db.pool);
  if (deps.replicas) metrics.trackReplicas(deps.replicas);
  metrics.trackReadiness(() => readinessChecks(deps));
  const router = Router();
  mountFeature(router, opsFeature, deps);
  if (deps.adminToken !== undefined) mountQueueDashboard(router, deps.adminToken, deps.queues ?? []);
  router.use('/docs', docsAssets);
  return router;
}
