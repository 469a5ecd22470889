import express, { type Express } from 'express';
import type { Queue } from 'bullmq';
import { REQUEST_BODY_LIMIT, type Config } from '../src/config.js';
import { createFeedReceiver, type FeedSink } from '../src/feeds/receive-feed.js';
import { redisReplayGuard } from '../src/feeds/replay-guard.js';
import { createSnsClient } from '../src/feeds/sns/certificates.js';
import type { ReadReplicas } from '../src/db/read-replicas.js';
import { createReads } from '../src/db/reads.js';
import { createMetrics, type Metrics } from '../src/metrics.js';
import { errorHandler, notFound } from './http/errors.js';
import { httpMetrics } from './http/http-metrics.js';
import { requestLogging } from './http/request-logging.js';
import { requestTracing } from './http/request-tracing.js';
import { closeConnectionsWhen } from './http/stopping.js';
import { apiSecurityHeaders } from './http/security-headers.js';
import { refuseUnstorableUrl } from './http/storable-text.js';
import { openApiDocument } from './openapi-document.js';
import { opsRouter } from './ops/feature.js';
import { countFeedRequests, feedsFeature } from './feeds/feature.js';
import { featureRouter } from './http/feature-router.js';
import { mountRouters, type RoutersConfig, type RoutersDeps } from './mount-routers.js';
import { unsubscribePageFeature } from './unsubscribe/feature.js';
import { redisGuards, type RedisGuardsConfig } from './redis-guards.js';
import type { RedisClient } from '../src/redis.js';
import { tracingEnabled } from '../src/tracing/tracing.js';

/** The settings the app reads: `loadConfig()`'s, whose defaults are the only ones. */
export type AppConfig = RoutersConfig &
  RedisGuardsConfig &
  Pick<Config, 'TRUST_PROXY' | 'METRICS_TOKEN' | 'ADMIN_TOKEN' | 'FEEDS_EMAIL_ID_TAG' | 'FEEDS_SNS_EXTRA_CERT_HOSTS'>;

/** The live things the app talks to. */
export interface AppDeps extends Omit<RoutersDeps, 'guards' | 'reads' | 'metrics'> {
  /**
   * DATABASE_READ_URL's replicas: lookups, checks, the list and the export read from them, but for
   * an account that has just written; without them, every read is the primary's.
   */
  replicas?: ReadReplicas | undefined;
  /**
   * A fail-fast ('request' role) Redis client; without it, rate limits, idempotency keys and the
   * feeds' replay tokens are off.
   */
  redis?: RedisClient | undefined;
  /** Prometheus metrics served at /metrics; a registry of the app's own when absent. */
  metrics?: Metrics | undefined;
  /** The events, batches and webhook-deliveries queues: depth in /metrics, and the dashboard at /admin/queues. */
  queues?: readonly Queue[] | undefined;
  /** Called when the rate limiter could not reach Redis and let a request through; counted in `metrics` when absent. */
  onRateLimitRedisFailure?: (() => void) | undefined;
  /** Called when a request is refused with 429; counted in `metrics` when absent. */
  onRateLimitRejected?: (() => void) | undefined;
  /**
   * Whether the process is stopping: `/ready` then answers 503 and every answer closes its
   * connection. Never, when absent.
   */
  stopping?: (() => boolean) | undefined;
  /** Queues feed events, resolving once Redis has taken them all; without it, feed requests answer 503. */
  publishFeedEvents?: FeedSink['publish'];
}

export function createApp(config: AppConfig, deps: AppDeps): Express {
  const { db, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);
  const metrics = deps.metrics ?? createMetrics();
  const guards = redisGuards(config, {
    redis: deps.redis,
    logger,
    onRedisFailure: deps.onRateLimitRedisFailure ?? (() => metrics.rateLimitRedisFailures.inc()),
    onRejected: deps.onRateLimitRejected ?? (() => metrics.rateLimitRejections.inc()),
  });
  const reads = createReads({
    primary: db,
    replicas: deps.replicas,
    redis: deps.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    logger,
    onRead: (served) =>
      metrics.dbReads.inc(
        served.target === 'replica'
          ? { target: 'replica', replica: served.replica }
          : { target: 'primary', reason: served.reason },
      ),
  });
  // Mounted only while tracing: with it off, a request makes no span and pays for no check.
  if (tracingEnabled()) app.use(requestTracing());
  app.use(requestLogging(logger), httpMetrics(metrics), apiSecurityHeaders(), refuseUnstorableUrl);
  if (deps.stopping) app.use(closeConnectionsWhen(deps.stopping));

  // The API first: its requests, by far the most, then pass no other router's routes.
  mountRouters(app, config, { ...deps, guards, reads, metrics });

  // The providers' webhooks: no key, and every request counted by provider and status.
  const receiver = createFeedReceiver({
    emailIdTag: config.FEEDS_EMAIL_ID_TAG,
    sns: createSnsClient({ extraHosts: config.FEEDS_SNS_EXTRA_CERT_HOSTS }),
    replays: deps.redis && redisReplayGuard(deps.redis, config.REDIS_KEY_PREFIX),
    logger,
  });
  const sink: FeedSink = { publish: deps.publishFeedEvents, metrics };
  app.use(
    feedsFeature.mountPath,
    featureRouter(feedsFeature, { db, receiver, sink }, { before: [countFeedRequests(metrics)] }),
  );

  // The recipients' links: no key, a page for people and the one-click POST for mailbox providers.
  app.use(
    unsubscribePageFeature.mountPath,
    featureRouter(unsubscribePageFeature, { db, reads, failureLimit: guards.failureLimit }),
  );

  // GET /health, /ready, /metrics, /openapi.json and /docs; with an admin token, the queue
  // dashboard at /admin/queues.
  app.use(
    opsRouter({
      db,
      metrics,
      redis: deps.redis,
      replicas: deps.replicas,
      stopping: deps.stopping,
      queues: deps.queues,
      metricsToken: config.METRICS_TOKEN,
      adminToken: config.ADMIN_TOKEN,
      failureLimit: guards.failureLimit,
      document: openApiDocument,
    }),
  );

  app.use(notFound);
  app.use(errorHandler(logger, REQUEST_BODY_LIMIT));
  return app;
}
