import type { Express, Request, Router } from 'express';
import type { BatchProducer } from '../src/batches/batch-producer.js';
import type { ReclassificationQueue } from '../src/bounces/reclassification-queue.js';
import type { Config } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import type { Reads } from '../src/db/reads.js';
import type { PublishEvents } from '../src/events/posted-events.js';
import type { Logger } from '../src/logger.js';
import type { MailProducer } from '../src/mail/messages/mail-producer.js';
import type { Metrics } from '../src/metrics.js';
import type { CheckFilter } from '../src/check-filter/filter-options.js';
import { createSuppressionLookups } from '../src/suppressions/suppression-lookups.js';
import type { DueDelivery } from '../src/webhooks/delivery.js';
import { allowlistFeature } from './allowlist/feature.js';
import { bouncesFeature } from './bounces/feature.js';
import { CONSOLE_API_PATH, CONSOLE_PATH, consoleRouter } from './console/routes.js';
import { consoleSessionFeature } from './console/session-feature.js';
import { consoleSession, csrfProtection } from './console/session.js';
import { eventsFeature } from './events/feature.js';
import { messagesFeature } from './messages/feature.js';
import { authenticate } from './http/authenticate.js';
import { sendingAccessOf, type Feature } from './http/endpoints.js';
import { featureRouter, type FeatureMount } from './http/feature-router.js';
import { sameOriginOnly } from './http/same-origin.js';
import { noStore } from './http/security-headers.js';
import type { RedisGuards } from './redis-guards.js';
import { returnPathsFeature } from './return-paths/feature.js';
import { settingsFeature } from './settings/feature.js';
import { suppressionsFeature } from './suppressions/feature.js';
import { unsubscribeLinksFeature } from './unsubscribe/feature.js';
import { webhooksFeature } from './webhooks/feature.js';

export type RoutersConfig = Pick<
  Config,
  | 'AUTH_CACHE_TTL_MS'
  | 'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS'
  | 'WEBHOOKS_PRIVATE_CIDRS'
  | 'CONSOLE_SESSION_HOURS'
  | 'CONSOLE_DIR'
  | 'PUBLIC_BASE_URL'
  | 'BOUNCE_DOMAINS'
  | 'BOUNCE_LOCAL_PART'
  | 'RETURN_PATH_SECRET_OVERLAP_DAYS'
  | 'MAIL_UNSIGNED_DOMAINS'
  | 'MAIL_MAX_MESSAGE_BYTES'
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
  /** Queues the messages of `POST /messages` for the mail worker; without it, they answer 503. */
  mail?: Pick<MailProducer, 'queue'> | undefined;
  /** Queues replayed deliveries at once; without it (or when it fails) the worker's sweeper queues them within a minute and a half. */
  queueDeliveries?: ((due: readonly DueDelivery[]) => Promise<void>) | undefined;
  /** The membership filter in front of the checks and lookups by address; without it, they ask the database. */
  checkFilter?: CheckFilter | undefined;
}

/** A feature with the dependencies it is served with, to be mounted behind one door or another. */
interface Served {
  mountPath: string;
  /** Whether a `sending_access` key may make a request that reached the feature: for its endpoints declared `sending`. */
  sendingAccess: (req: Request) => boolean;
  router: (mount: FeatureMount) => Router;
}

function served<Deps>(feature: Feature<Deps>, deps: Deps): Served {
  return {
    mountPath: feature.mountPath,
    sendingAccess: sendingAccessOf(feature),
    router: (mount) => featureRouter(feature, deps, mount),
  };
}

/**
 * The API behind bearer keys, then the console behind its session: the same features twice, with
 * different guards in front. What each endpoint's route reads of its body, and whether an
 * idempotency key guards it, its declaration says (`api/http/endpoints.ts`).
 */
export function mountRouters(app: Express, config: RoutersConfig, deps: RoutersDeps): void {
  const { db, logger, reads, metrics } = deps;
  const { failureLimit, rateLimited, idempotent } = deps.guards;
  const lookups = createSuppressionLookups(db, reads, deps.checkFilter);
  const suppressions = served(suppressionsFeature, { db, logger, reads, metrics, imports: deps.imports, lookups });
  const webhooks = served(webhooksFeature, {
    db,
    logger,
    allowPrivateEndpoints: config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS,
    privateCidrs: config.WEBHOOKS_PRIVATE_CIDRS,
    queue: deps.queueDeliveries,
  });
  const settings = served(settingsFeature, { db });
  const bounces = served(bouncesFeature, { db, logger, reads, reclassifications: deps.reclassifications });
  const allowlist = served(allowlistFeature, { db, reads });
  const events = served(eventsFeature, { publish: deps.publishEvents, metrics });
  const links = served(unsubscribeLinksFeature, { db, publicBaseUrl: config.PUBLIC_BASE_URL });
  const returnPaths = served(returnPathsFeature, {
    db,
    bounceDomains: config.BOUNCE_DOMAINS,
    localPart: config.BOUNCE_LOCAL_PART,
    overlapDays: config.RETURN_PATH_SECRET_OVERLAP_DAYS,
  });
  const messages = served(messagesFeature, {
    db,
    settings: {
      bounceDomains: config.BOUNCE_DOMAINS,
      localPart: config.BOUNCE_LOCAL_PART,
      unsignedDomains: config.MAIL_UNSIGNED_DOMAINS,
    },
    maxBytes: config.MAIL_MAX_MESSAGE_BYTES,
    mail: deps.mail,
  });

  // The suppressions first: their requests, by far the most, then pass no other router.
  const authentication = { db, logger, cacheTtlMs: config.AUTH_CACHE_TTL_MS, failureLimit };
  for (const feature of [suppressions, webhooks, settings, bounces, allowlist, events, links, returnPaths, messages]) {
    const guards = [noStore, authenticate({ ...authentication, sendingAccess: feature.sendingAccess }), ...rateLimited];
    app.use(feature.mountPath, feature.router({ guards, idempotent }));
  }

  // The console: its session (never cached, and refused to another origin's pages), then some of
  // the API's features behind the session cookie and CSRF checks instead of a key, then its pages.
  // Idempotency keys are the API's: the console's page sends none.
  const session = consoleSession({ db, failureLimit });
  app.use(
    consoleSessionFeature.mountPath,
    featureRouter(
      consoleSessionFeature,
      { db, logger, ttlMs: config.CONSOLE_SESSION_HOURS * 60 * 60 * 1000, failureLimit },
      { before: [noStore, sameOriginOnly], session: [session, ...rateLimited] },
    ),
  );
  const consoleGuards = [noStore, sameOriginOnly, session, csrfProtection, ...rateLimited];
  for (const feature of [suppressions, settings, bounces, allowlist]) {
    const mountPath = CONSOLE_API_PATH + feature.mountPath;
    app.use(mountPath, feature.router({ mountPath, guards: consoleGuards }));
  }
  app.use(CONSOLE_PATH, consoleRouter(config.CONSOLE_DIR));
}
