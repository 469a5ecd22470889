import express, { Router, type Request, type Response } from 'express';
import type { Database } from '../../src/db/database.js';
import { findFeed } from '../../src/feeds/feed-repository.js';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { FeedUnavailableError, FeedVerificationError } from '../../src/feeds/feed-errors.js';
import { InvalidPayloadError } from '../../src/feeds/feed-mapping.js';
import type { FeedReceiver } from '../../src/feeds/receive-feed.js';
import type { Logger } from '../../src/logger.js';
import type { Metrics } from '../../src/metrics.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';

export const FEEDS_PATH = '/feeds';

export interface FeedsRouterOptions {
  db: Database;
  receiver: FeedReceiver;
  /** Queues events; resolves once Redis has taken every one. Without it, feed requests answer 503. */
  publish?: (events: readonly SuppressionEventInput[]) => Promise<unknown>;
  metrics: Metrics;
  logger: Logger;
  bodyLimit: string;
}

/** A queued event's kind in `feed_events_total`. */
function kindOf(event: SuppressionEventInput): string {
  return event.type === 'complaint' ? 'complaint' : `${event.bounce?.type ?? 'undetermined'}_bounce`;
}

/** An ignored event's kind: the provider's own name, kept to a short token so it stays a label. */
function ignoredKind(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '_')
      .slice(0, 40) || 'unnamed'
  );
}

/**
 * `POST /feeds/{feed_id}`: a provider's webhook. No API key: the provider's own signature or
 * credentials authenticate it. The answer is 2xx only once Redis holds every event of the request,
 * so a provider retries anything that is not queued.
 */
export function feedsRouter(options: FeedsRouterOptions): Router {
  const { metrics } = options;
  const router = Router();

  async function receive(req: Request<{ feed_id: string }>, res: Response): Promise<void> {
    const feed = await findFeed(options.db, req.params.feed_id);
    if (!feed) throw new AppError('not_found', 'Feed not found.');
    res.locals.feedProvider = feed.provider;
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let received;
    try {
      received = await options.receiver.receive(feed, { headers: req.headers, body });
    } catch (error) {
      if (error instanceof FeedVerificationError) {
        metrics.feedVerificationFailures.inc({ provider: feed.provider, reason: error.reason });
        throw new AppError('invalid_signature', errorMessage('invalid_signature', { reason: error.message }));
      }
      if (error instanceof InvalidPayloadError) {
        throw new AppError('invalid_payload', errorMessage('invalid_payload', { problem: error.message }));
      }
      if (error instanceof FeedUnavailableError) {
        throw new AppError('service_unavailable', `${error.message}. Try again shortly.`, { cause: error });
      }
      throw error;
    }
    if (received.events.length > 0) {
      if (!options.publish) throw new AppError('service_unavailable', 'The event queue is not available.');
      try {
        await options.publish(received.events);
      } catch (error) {
        throw new AppError('service_unavailable', 'The event queue is unavailable. Try again shortly.', {
          cause: error,
        });
      }
    }
    try {
      await received.afterQueued();
    } catch (error) {
      // The events are queued, and a replay of them is one event each however often it comes.
      options.logger.warn({ err: error, feed_id: feed.id }, 'feed token not remembered');
    }
    for (const event of received.events) metrics.feedEvents.inc({ provider: feed.provider, kind: kindOf(event) });
    for (const name of received.ignored) {
      metrics.feedEvents.inc({ provider: feed.provider, kind: `ignored:${ignoredKind(name)}` });
    }
    if (received.unusable > 0) {
      metrics.feedEvents.inc({ provider: feed.provider, kind: 'unusable_address' }, received.unusable);
    }
    res.json({
      object: 'feed_delivery',
      queued: received.events.length,
      ignored: received.ignored.length + received.unusable,
    });
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
