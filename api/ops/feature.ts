import type { Router } from 'express';
import { defineFeature } from '../http/endpoints.js';
import { featureRouter } from '../http/feature-router.js';
import { mountQueueDashboard } from './admin.js';
import type { OpsDeps, ProbeDeps } from './deps.js';
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

/** The probes alone: what a process without the API serves, for orchestrators and Prometheus. */
const probesFeature = defineFeature<ProbeDeps>('', [healthEndpoint, readyEndpoint, metricsEndpoint]);

/** `/health`, `/ready` and `/metrics`, and nothing else: the router of a process that runs only workers. */
export function probesRouter(deps: ProbeDeps): Router {
  deps.metrics.trackPool(deps.db.pool);
  return featureRouter(probesFeature, deps);
}

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
  const router = featureRouter(opsFeature, deps);
  if (deps.adminToken !== undefined) {
    mountQueueDashboard(router, { token: deps.adminToken, queues: deps.queues ?? [], failureLimit: deps.failureLimit });
  }
  router.use('/docs', docsAssets);
  return router;
}
