import { Router } from 'express';
import type { Database } from '../../src/db/database.js';
import type { FeedReceiver, FeedSink } from '../../src/feeds/receive-feed.js';
import type { Metrics } from '../../src/metrics.js';
import { defineFeature, mountFeature } from '../http/endpoints.js';
import { receiveFeedEndpoint, type FeedsDeps } from './receive.js';

export const FEEDS_PATH = '/feeds';

/** The providers' webhooks: one endpoint per feed. */
export const feedsFeature = defineFeature<FeedsDeps>(FEEDS_PATH, [receiveFeedEndpoint]);

export interface FeedsRouterOptions {
  db: Database;
  receiver: FeedReceiver;
  /** Queues events; resolves once Redis has taken every one. Without it, feed requests answer 503. */
  publish?: FeedSink['publish'];
  metrics: Metrics;
  bodyLimit: string;
}

/** The feature's router: every request it answers is counted by provider and status. */
export function feedsRouter(options: FeedsRouterOptions): Router {
  const { metrics } = options;
  const router = Router();
  router.use((_req, res, next) => {
    res.on('finish', () => {
      const provider = (res.locals.feedProvider as string | undefined) ?? 'unknown';
      metrics.feedRequests.inc({ provider, status: String(res.statusCode) });
    });
    next();
  });
  const sink: FeedSink = { publish: options.publish, metrics };
  mountFeature(router, feedsFeature, {
    db: options.db,
    receiver: options.receiver,
    sink,
    bodyLimit: options.bodyLimit,
  });
  return router;
}
