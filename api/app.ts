import express, { Router, type Express, type Request, type RequestHandler } from 'express';
import type { Queue } from 'bullmq';
import type { BatchProducer } from '../src/batches/batch-producer.js';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import type { SuppressionEventInput } from '../src/events/event-schema.js';
import type { DueDelivery } from '../src/webhooks/delivery.js';
import { createFeedReceiver } from '../src/feeds/receive-feed.js';
import { redisReplayGuard } from '../src/feeds/replay-guard.js';
import { createSnsClient } from '../src/feeds/sns-certificates.js';
import { createMetrics, type Metrics } from '../src/metrics.js';
import { authenticate } from './http/authenticate.js';
import { consoleSession, csrfProtection, sameOriginOnly } from './console/session.js';
import { createAuthFailureLimit, type AuthFailureLimit } from './http/auth-failure-limit.js';
import { errorHandler, methodNotAllowed, notFound } from './http/errors.js';
import { httpMetrics } from './http/http-metrics.js';
import { idempotency } from './http/idempotency.js';
import { createRateLimiter } from './http/rate-limit.js';
import { requestLogging } from './http/request-logging.js';
import { namedRoute } from './http/route-pattern.js';
import { apiSecurityHeaders, noStore } from './http/security-headers.js';
import { CONSOLE_API_PATH, CONSOLE_PATH, consoleRouter } from './console/routes.js';
import { CONSOLE_SESSION_PATH, consoleSessionRouter } from './console/session-routes.js';
import { docsRouter } from './ops/docs-routes.js';
import { opsRouter } from './ops/routes.js';
import { FEEDS_PATH, feedsRouter } from './feeds/routes.js';
import { SETTINGS_PATH, settingsRouter } from './settings/routes.js';
import { IMPORTS_PATH } from './suppressions/import-routes.js';
import { isSendingRequest, SUPPRESSIONS_PATH, suppressionsRouter } from './suppressions/routes.js';
import { WEBHOOKS_PATH, webhooksRouter } from './webhooks/routes.js';
import { BOUNCES_PATH, bouncesRouter, isSendingBounceRequest } from './bounces/routes.js';
import type { ReclassificationQueue } from '../src/bounces/reclassification-queue.js';
import type { RedisClient } from '../src/redis.js';

export interface AppOptions {
  db: Database;
  logger: Logger;
  /** How long a key lookup is trusted; a revoked key stops working within this time. */
  authCacheTtlMs?: number;
  /** A fail-fast ('request' role) Redis client; without it, rate limiting and idempotency keys are off. */
  redis?: RedisClient;
  /** Requests per second per account (default 10); needs `redis`. */
  rateLimitPerSecond?: number;
  /**
   * Failed authentications (no key, or a key that is not valid) per second per client address;
   * past it, the address's requests are refused before any lookup (default 20); needs `redis`.
   */
  authFailuresPerSecond?: number;
  /** Express's `trust proxy`: which proxies' `X-Forwarded-For` gives the client address (default none). */
  trustProxy?: boolean | number | string;
  /** Namespace of the rate-limit and idempotency records in Redis (default `sl:`). */
  redisKeyPrefix?: string;
  /** Called when the rate limiter could not reach Redis and let a request through (for metrics). */
  onRateLimitRedisFailure?: () => void;
  /** Called when a request is refused with 429 (for metrics). */
  onRateLimitRejected?: () => void;
  bodyLimit?: string;
  /** Prometheus metrics served at /metrics; a registry of the app's own when absent. */
  metrics?: Metrics;
  /** The events, batches and webhook-deliveries queues: depth in /metrics, and the dashboard at /admin/queues. */
  queues?: readonly Queue[];
  /** When set, /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
  /** When set, the queue dashboard is served at /admin/queues behind this token. */
  adminToken?: string | undefined;
  /** Provider feeds at `POST /feeds/{feed_id}`. */
  feeds?: FeedsOptions;
  /** Change-event webhooks at /webhooks. */
  webhooks?: WebhooksOptions;
  /** Queues the batch jobs of `POST /suppressions/imports` and looks them up; without it, imports answer 503. */
  imports?: Pick<BatchProducer, 'add' | 'outcome'>;
  /** The web console at /console. */
  console?: ConsoleOptions;
  /** Queues the reclassifications of `POST /bounces/reclassifications`; without it, they answer 503. */
  reclassifications?: Pick<ReclassificationQueue, 'queue'>;
}

export interface ConsoleOptions {
  /** The built console (`npm run build` writes dist/console); without it, `/console` answers 404. */
  dir?: string | undefined;
  /** How long a console session lasts from its sign-in (default 8 hours). */
  sessionTtlMs?: number;
}

const DEFAULT_CONSOLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface FeedsOptions {
  /** Queues feed events, resolving once Redis has taken them all; without it, feed requests answer 503. */
  publish?: (events: readonly SuppressionEventInput[]) => Promise<unknown>;
  /** The tag or metadata key whose UUID value is an event's `source_id` (default `email_id`). */
  emailIdTag?: string;
  /** `host:port`s trusted as SNS hosts besides SNS's own; plain HTTP only on loopback. */
  snsExtraCertHosts?: readonly string[];
}

export interface WebhooksOptions {
  /** Endpoints may be http:// and private addresses (WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS; development and tests). */
  allowPrivateEndpoints?: boolean;
  /** Queues replayed deliveries at once; without it (or when it fails) the worker's sweeper queues them within a minute and a half. */
  queue?: (due: readonly DueDelivery[]) => Promise<void>;
}

export function createApp(options: AppOptions): Express {
  const bodyLimit = options.bodyLimit ?? '1mb';
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);
  const metrics = options.metrics ?? createMetrics();
  const { failureLimit, rateLimited, idempotent } = redisGuards({
    onRateLimitRedisFailure: () => metrics.rateLimitRedisFailures.inc(),
    onRateLimitRejected: () => metrics.rateLimitRejections.inc(),
    ...options,
  });
  app.use(requestLogging(options.logger), httpMetrics(metrics), apiSecurityHeaders());

  // The API first: its requests, by far the most, then pass no other router's routes.
  const authentication = {
    db: options.db,
    logger: options.logger,
    cacheTtlMs: options.authCacheTtlMs ?? 5000,
    failureLimit,
  };
  app.use(
    SUPPRESSIONS_PATH,
    suppressionsRouter(
      options.db,
      [
        noStore,
        authenticate({ ...authentication, sendingAccess: isSendingRequest }),
        ...rateLimited,
        // Only POSTs carry bodies and idempotency keys. Resend's SDKs send `Content-Type:
        // application/json` on bodiless GET and DELETE too; those skip the parser. An import's
        // body is the list itself, read as a stream by its route.
        onlyWhen(
          (req) => req.method === 'POST' && req.path !== IMPORTS_PATH,
          [express.json({ limit: bodyLimit, strict: true }), ...idempotent],
        ),
      ],
      { producer: options.imports, logger: options.logger },
    ),
  );

  // Every webhook request needs a `full_access` key. PATCH carries a body too; idempotency keys
  // stay POST-only (the middleware passes other methods through).
  app.use(
    WEBHOOKS_PATH,
    webhooksRouter(
      {
        db: options.db,
        logger: options.logger,
        allowPrivateEndpoints: options.webhooks?.allowPrivateEndpoints ?? false,
        queue: options.webhooks?.queue,
      },
      [
        noStore,
        authenticate(authentication),
        ...rateLimited,
        onlyFor(['POST', 'PATCH'], [express.json({ limit: bodyLimit, strict: true }), ...idempotent]),
      ],
    ),
  );

  // An account's policy: `full_access` keys only, as for webhooks. Only PATCH carries a body, and
  // there is no POST for an idempotency key to guard.
  app.use(
    SETTINGS_PATH,
    settingsRouter(options.db, [
      noStore,
      authenticate(authentication),
      ...rateLimited,
      onlyFor(['PATCH'], [express.json({ limit: bodyLimit, strict: true })]),
    ]),
  );

  // The classifier on demand (a sending key may call it), an account's bounce summary and its
  // reclassifications. Only POSTs carry bodies; idempotency keys guard them as elsewhere.
  const bounces = { db: options.db, logger: options.logger, reclassifications: options.reclassifications };
  app.use(
    BOUNCES_PATH,
    bouncesRouter(bounces, [
      noStore,
      authenticate({ ...authentication, sendingAccess: isSendingBounceRequest }),
      ...rateLimited,
      onlyFor(['POST'], [express.json({ limit: bodyLimit, strict: true }), ...idempotent]),
    ]),
  );

  // The console: its session, then the same suppressions router as the API's, behind the session
  // cookie and CSRF checks instead of a bearer key, then its pages.
  app.use(
    CONSOLE_SESSION_PATH,
    consoleSessionRouter({
      db: options.db,
      logger: options.logger,
      ttlMs: options.console?.sessionTtlMs ?? DEFAULT_CONSOLE_SESSION_MS,
      failureLimit,
      rateLimited,
      bodyLimit,
    }),
  );
  app.use(
    CONSOLE_API_PATH + SUPPRESSIONS_PATH,
    suppressionsRouter(
      options.db,
      [
        noStore,
        sameOriginOnly,
        consoleSession({ db: options.db, failureLimit }),
        csrfProtection,
        ...rateLimited,
        // As on the API: an import's body is the list itself, read as a stream by its route.
        onlyWhen(
          (req) => req.method === 'POST' && req.path !== IMPORTS_PATH,
          [express.json({ limit: bodyLimit, strict: true })],
        ),
      ],
      { producer: options.imports, logger: options.logger },
      CONSOLE_API_PATH + SUPPRESSIONS_PATH,
    ),
  );
  // The console's settings and bounce pages use the API's routers behind the same session guards.
  const consoleGuards = (...parsers: RequestHandler[]): RequestHandler[] => [
    noStore,
    sameOriginOnly,
    consoleSession({ db: options.db, failureLimit }),
    csrfProtection,
    ...rateLimited,
    ...parsers,
  ];
  app.use(
    CONSOLE_API_PATH + SETTINGS_PATH,
    settingsRouter(
      options.db,
      consoleGuards(onlyFor(['PATCH'], [express.json({ limit: bodyLimit, strict: true })])),
      CONSOLE_API_PATH + SETTINGS_PATH,
    ),
  );
  app.use(
    CONSOLE_API_PATH + BOUNCES_PATH,
    bouncesRouter(
      bounces,
      consoleGuards(onlyFor(['POST'], [express.json({ limit: bodyLimit, strict: true })])),
      CONSOLE_API_PATH + BOUNCES_PATH,
    ),
  );
  app.use(CONSOLE_PATH, consoleRouter(options.console?.dir));

  app.use(
    FEEDS_PATH,
    feedsRouter({
      db: options.db,
      receiver: createFeedReceiver({
        emailIdTag: options.feeds?.emailIdTag ?? 'email_id',
        sns: createSnsClient({ extraHosts: options.feeds?.snsExtraCertHosts ?? [] }),
        replays: options.redis && redisReplayGuard(options.redis, options.redisKeyPrefix ?? 'sl:'),
        logger: options.logger,
      }),
      publish: options.feeds?.publish,
      metrics,
      logger: options.logger,
      bodyLimit,
    }),
  );

  namedRoute(app, '', '/health')
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(methodNotAllowed('GET'));

  // GET /ready, GET /metrics and, with an admin token, the queue dashboard at /admin/queues.
  app.use(
    opsRouter({
      db: options.db,
      metrics,
      redis: options.redis,
      queues: options.queues,
      metricsToken: options.metricsToken,
      adminToken: options.adminToken,
    }),
  );

  // GET /openapi.json and GET /docs (Swagger UI from swagger-ui-dist); public, like /health.
  app.use(docsRouter());

  app.use(notFound);
  app.use(errorHandler(options.logger, bodyLimit));
  return app;
}

function onlyWhen(applies: (req: Request) => boolean, handlers: readonly RequestHandler[]): RequestHandler {
  const when = Router();
  when.use(...handlers);
  return (req, res, next) => (applies(req) ? when(req, res, next) : next());
}

function onlyFor(methods: readonly string[], handlers: readonly RequestHandler[]): RequestHandler {
  return onlyWhen((req) => methods.includes(req.method), handlers);
}

interface RedisGuards {
  failureLimit?: AuthFailureLimit;
  rateLimited: RequestHandler[];
  idempotent: RequestHandler[];
}

/** Rate limits and idempotency keys, all kept in Redis; none is mounted without a client. */
function redisGuards(options: AppOptions): RedisGuards {
  const { redis, logger } = options;
  if (!redis) return { rateLimited: [], idempotent: [] };
  const keyPrefix = options.redisKeyPrefix ?? 'sl:';
  const limits = {
    redis,
    logger,
    keyPrefix,
    onRedisFailure: options.onRateLimitRedisFailure,
    onRejected: options.onRateLimitRejected,
  };
  const failureLimit = createAuthFailureLimit({ ...limits, failuresPerSecond: options.authFailuresPerSecond ?? 20 });
  const rateLimiter = createRateLimiter({ ...limits, pointsPerSecond: options.rateLimitPerSecond ?? 10 });
  return { failureLimit, rateLimited: [rateLimiter], idempotent: [idempotency({ redis, logger, keyPrefix })] };
}
