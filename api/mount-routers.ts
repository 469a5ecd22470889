import express, { Router, type Express, type Request, type RequestHandler } from 'express';
import type { BatchProducer } from '../src/batches/batch-producer.js';
import type { ReclassificationQueue } from '../src/bounces/reclassification-queue.js';
import { REQUEST_BODY_LIMIT, type Config } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import type { Reads } from '../src/db/reads.js';
import type { PublishEvents } from '../src/events/posted-events.js';
import type { Logger } from '../src/logger.js';
import type { Metrics } from '../src/metrics.js';
import type { DueDelivery } from '../src/webhooks/delivery.js';
import { ALLOWLIST_PATH, allowlistRouter } from './allowlist/feature.js';
import { BOUNCES_PATH, bouncesRouter, isSendingBounceRequest } from './bounces/feature.js';
import { EVENTS_PATH, eventsRouter, isSendingEventsRequest } from './events/feature.js';
import { consoleSession, csrfProtection } from './console/session.js';
import { sameOriginOnly } from './http/same-origin.js';
import { CONSOLE_API_PATH, CONSOLE_PATH, consoleRouter } from './console/routes.js';
import { CONSOLE_SESSION_PATH, consoleSessionRouter } from './console/session-feature.js';
import { authenticate } from './http/authenticate.js';
import { noStore } from './http/security-headers.js';
import { jsonBodyOfStorableText } from './http/storable-text.js';
import type { RedisGuards } from './redis-guards.js';
import { SETTINGS_PATH, settingsRouter } from './settings/feature.js';
import { isSendingSuppressionRequest, SUPPRESSIONS_PATH, suppressionsRouter } from './suppressions/feature.js';
import { IMPORTS_PATH } from './suppressions/imports.js';
import { isSendingLinksRequest, UNSUBSCRIBE_LINKS_PATH, unsubscribeLinksRouter } from './unsubscribe/feature.js';
import { WEBHOOKS_PATH, webhooksRouter } from './webhooks/feature.js';

export type RoutersConfig = Pick<
  Config,
  | 'AUTH_CACHE_TTL_MS'
  | 'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS'
  | 'WEBHOOKS_PRIVATE_CIDRS'
  | 'CONSOLE_SESSION_HOURS'
  | 'CONSOLE_DIR'
  | 'PUBLIC_BASE_URL'
>;

export interface RoutersDeps {
  db: Database;
  logger: Logger;
  metrics: Metrics;
  guards: RedisGuards;
  /** Where the reads that tolerate a replica go, and the marks of each account's own writes. */
  reads: Reads;
  /** Queues the batch jobs of `POST /suppressions/imports` and looks them up; without it, imports answer 503. */
  imports?: Pick<BatchProducer, 'add' | 'outcome'> | undefined;
  /** Queues the reclassifications of `POST /bounces/reclassifications`; without it, they answer 503. */
  reclassifications?: Pick<ReclassificationQueue, 'queue'> | undefined;
  /** Queues the events of `POST /events`, resolving to their job ids once Redis holds them all; without it, they answer 503. */
  publishEvents?: PublishEvents | undefined;
  /** Queues replayed deliveries at once; without it (or when it fails) the worker's sweeper queues them within a minute and a half. */
  queueDeliveries?: ((due: readonly DueDelivery[]) => Promise<void>) | undefined;
}

/** A JSON body of the caller's own words: text that cannot be stored is refused (422) before any handler. */
const jsonBody = (): RequestHandler => jsonBodyOfStorableText(REQUEST_BODY_LIMIT);

function onlyWhen(applies: (req: Request) => boolean, handlers: readonly RequestHandler[]): RequestHandler {
  const when = Router();
  when.use(...handlers);
  return (req, res, next) => (applies(req) ? when(req, res, next) : next());
}

function onlyFor(methods: readonly string[], handlers: readonly RequestHandler[]): RequestHandler {
  return onlyWhen((req) => methods.includes(req.method), handlers);
}

/**
 * The API behind bearer keys, then the console behind its session: the same routers twice, with
 * different guards in front.
 */
export function mountRouters(app: Express, config: RoutersConfig, deps: RoutersDeps): void {
  const { db, logger, reads, metrics } = deps;
  const { failureLimit, rateLimited, idempotent } = deps.guards;
  const suppressions = { db, logger, reads, metrics, imports: deps.imports };
  const bounces = { db, logger, reads, reclassifications: deps.reclassifications };
  const authentication = { db, logger, cacheTtlMs: config.AUTH_CACHE_TTL_MS, failureLimit };
  app.use(
    SUPPRESSIONS_PATH,
    suppressionsRouter(suppressions, [
      noStore,
      authenticate({ ...authentication, sendingAccess: isSendingSuppressionRequest }),
      ...rateLimited,
      // Only POSTs carry bodies and idempotency keys. Resend's SDKs send `Content-Type:
      // application/json` on bodiless GET and DELETE too; those skip the parser. An import's
      // body is the list itself, read as a stream by its route.
      onlyWhen((req) => req.method === 'POST' && req.path !== IMPORTS_PATH, [jsonBody(), ...idempotent]),
    ]),
  );

  // Every webhook request needs a `full_access` key. PATCH carries a body too; idempotency keys
  // stay POST-only (the middleware passes other methods through).
  app.use(
    WEBHOOKS_PATH,
    webhooksRouter(
      {
        db,
        logger,
        allowPrivateEndpoints: config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS,
        privateCidrs: config.WEBHOOKS_PRIVATE_CIDRS,
        queue: deps.queueDeliveries,
      },
      [noStore, authenticate(authentication), ...rateLimited, onlyFor(['POST', 'PATCH'], [jsonBody(), ...idempotent])],
    ),
  );

  // An account's policy: `full_access` keys only, as for webhooks. Only PATCH carries a body, and
  // there is no POST for an idempotency key to guard.
  app.use(
    SETTINGS_PATH,
    settingsRouter({ db }, [noStore, authenticate(authentication), ...rateLimited, onlyFor(['PATCH'], [jsonBody()])]),
  );

  // The classifier on demand (a sending key may call it), an account's bounce summary and its
  // reclassifications. Only POSTs carry bodies; idempotency keys guard them as elsewhere.
  app.use(
    BOUNCES_PATH,
    bouncesRouter(bounces, [
      noStore,
      authenticate({ ...authentication, sendingAccess: isSendingBounceRequest }),
      ...rateLimited,
      onlyFor(['POST'], [jsonBody(), ...idempotent]),
    ]),
  );

  // The allowlist: `full_access` keys only. Only POST carries a body.
  app.use(
    ALLOWLIST_PATH,
    allowlistRouter({ db, reads }, [
      noStore,
      authenticate(authentication),
      ...rateLimited,
      onlyFor(['POST'], [jsonBody(), ...idempotent]),
    ]),
  );

  // Bounces and complaints from mail systems (a sending key may post them), and their JSON Schema,
  // which needs no key. Only POST carries a body; idempotency keys guard it as elsewhere.
  app.use(
    EVENTS_PATH,
    eventsRouter({ publish: deps.publishEvents, metrics }, [
      noStore,
      authenticate({ ...authentication, sendingAccess: isSendingEventsRequest }),
      ...rateLimited,
      // Events are evidence from mail servers: their schema strips what cannot be stored.
      onlyFor(['POST'], [express.json({ limit: REQUEST_BODY_LIMIT, strict: true }), ...idempotent]),
    ]),
  );

  // One-click unsubscribe links for the messages a mail system sends (a sending key may ask).
  app.use(
    UNSUBSCRIBE_LINKS_PATH,
    unsubscribeLinksRouter({ db, publicBaseUrl: config.PUBLIC_BASE_URL }, [
      noStore,
      authenticate({ ...authentication, sendingAccess: isSendingLinksRequest }),
      ...rateLimited,
      onlyFor(['POST'], [jsonBody(), ...idempotent]),
    ]),
  );

  // The console: its session, then the same routers as the API's, behind the session cookie and
  // CSRF checks instead of a bearer key, then its pages.
  app.use(
    CONSOLE_SESSION_PATH,
    consoleSessionRouter({
      db,
      logger,
      ttlMs: config.CONSOLE_SESSION_HOURS * 60 * 60 * 1000,
      failureLimit,
      rateLimited,
      bodyLimit: REQUEST_BODY_LIMIT,
    }),
  );
  const consoleGuards = (...parsers: RequestHandler[]): RequestHandler[] => [
    noStore,
    sameOriginOnly,
    consoleSession({ db, failureLimit }),
    csrfProtection,
    ...rateLimited,
    ...parsers,
  ];
  app.use(
    CONSOLE_API_PATH + SUPPRESSIONS_PATH,
    suppressionsRouter(
      suppressions,
      // As on the API: an import's body is the list itself, read as a stream by its route.
      consoleGuards(onlyWhen((req) => req.method === 'POST' && req.path !== IMPORTS_PATH, [jsonBody()])),
      CONSOLE_API_PATH + SUPPRESSIONS_PATH,
    ),
  );
  app.use(
    CONSOLE_API_PATH + SETTINGS_PATH,
    settingsRouter({ db }, consoleGuards(onlyFor(['PATCH'], [jsonBody()])), CONSOLE_API_PATH + SETTINGS_PATH),
  );
  app.use(
    CONSOLE_API_PATH + BOUNCES_PATH,
    bouncesRouter(bounces, consoleGuards(onlyFor(['POST'], [jsonBody()])), CONSOLE_API_PATH + BOUNCES_PATH),
  );
  app.use(
    CONSOLE_API_PATH + ALLOWLIST_PATH,
    allowlistRouter({ db, reads }, consoleGuards(onlyFor(['POST'], [jsonBody()])), CONSOLE_API_PATH + ALLOWLIST_PATH),
  );
  app.use(CONSOLE_PATH, consoleRouter(config.CONSOLE_DIR));
}
