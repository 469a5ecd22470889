import express, { Router, type Request, type Response } from 'express';
import type { Database } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import { findFeed } from '../../src/feeds/feed-repository.js';
import type { FeedReceiver, FeedSink } from '../../src/feeds/receive-feed.js';
import type { Logger } from '../../src/logger.js';
import type { Metrics } from '../../src/metrics.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';

export const FEEDS_PATH = '/feeds';

export interface FeedsRouterOptions {
  db: Database;
  receiver: FeedReceiver;
  /** Queues events; resolves once Redis has taken every one. Without it, feed requests answer 503. */
  publish?: FeedSink['publish'];
  metrics: Metrics;
  logger: Logger;
  bodyLimit: string;
}

/**
 * `POST /feeds/{feed_id}`: a provider's webhook. No API key: the provider's own signature or
 * credentials authenticate it. The answer is 2xx only once Redis holds every event of the request,
 * so a provider retries anything that is not queued.
 */
export function feedsRouter(options: FeedsRouterOptions): Router {
  const { metrics } = options;
  const sink: FeedSink = { publish: options.publish, metrics };
  const router = Router();

  async function receive(req: Request<{ feed_id: string }>, res: Response): Promise<void> {
    const feed = await findFeed(options.db, req.params.feed_id);
    if (!feed) throw new AppError('not_found', 'Feed not found.');
    res.locals.feedProvider = feed.provider;
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const delivery = await options.receiver.receive(feed, { headers: req.headers, body }, sink);
    res.json({ object: 'feed_delivery', ...delivery });
  }

  router.use((req, res, next) => {
    res.on('finish', () => {
      const provider = (res.locals.feedProvider as string | undefined) ?? 'unknown';
      metrics.feedRequests.inc({ provider, status: String(res.statusCode) });
    });
    next();
  });
  namedRoute(router, FEEDS_PATH, '/:feed_id')
    .post(express.raw({ type: () => true, limit: options.bodyLimit }), receive)
    .all(methodNotAllowed('POST'));
  return router;
}
