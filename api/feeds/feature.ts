import type { RequestHandler } from 'express';
import type { Metrics } from '../../src/metrics.js';
import { defineFeature } from '../http/endpoints.js';
import { receiveFeedEndpoint, type FeedsDeps } from './receive.js';

const FEEDS_PATH = '/feeds';

/** The providers' webhooks: one endpoint per feed. */
export const feedsFeature = defineFeature<FeedsDeps>(FEEDS_PATH, [receiveFeedEndpoint]);

/** Counts every request under the feeds' path once it is answered, by provider and status (404s and 405s too). */
export function countFeedRequests(metrics: Pick<Metrics, 'feedRequests'>): RequestHandler {
  return (_req, res, next) => {
    res.on('finish', () => {
      const provider = (res.locals.feedProvider as string | undefined) ?? 'unknown';
      metrics.feedRequests.inc({ provider, status: String(res.statusCode) });
    });
    next();
  };
}
