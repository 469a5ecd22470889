import { z } from 'zod';
import { feedDeliverySchema } from '../../src/contract/operations.js';
import type { Database } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import { findFeed } from '../../src/feeds/feed-repository.js';
import type { FeedReceiver, FeedSink } from '../../src/feeds/receive-feed.js';
import { pathParameter, type Endpoint } from '../http/endpoints.js';
import { exampleFeedBodies } from '../openapi/examples.js';
import { jsonRequest } from '../openapi/requests.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';

/** What `POST /feeds/{feed_id}` talks to. */
export interface FeedsDeps {
  db: Database;
  receiver: FeedReceiver;
  sink: FeedSink;
}

/**
 * A provider's payload: an object (SNS, Postmark, Mailgun, Resend, Postal, a KumoMTA record) or an array of
 * events (SendGrid, a KumoMTA batch, which may also come as one record per line).
 */
const feedBodySchema = z
  .union([z.looseObject({}), z.array(z.looseObject({}))])
  .meta({ description: 'The provider’s payload, verbatim: verified over its raw bytes.' });

const feedParamsSchema = z.object({
  feed_id: z
    .string()
    .meta({ description: 'The feed id `feeds create` printed.', example: 'feed_3q2mXv8bLkP0cT7yWn1sRfUaHdE4jG6o' }),
});

/**
 * A provider's webhook. No API key: the provider's own signature or credentials authenticate it,
 * over the raw bytes, which the endpoint reads itself (the schemas only document them). The answer
 * is 2xx only once Redis holds every event of the request, so a provider retries anything that is
 * not queued.
 */
export const receiveFeedEndpoint: Endpoint<FeedsDeps> = {
  method: 'post',
  path: '/:feed_id',
  access: 'public',
  body: 'raw',
  doc: {
    operationId: 'receiveFeed',
    tags: ['Feeds'],
    summary: 'A provider’s bounce and complaint webhook',
    description:
      'Where SES (through SNS), SendGrid, Postmark, Mailgun, Resend, KumoMTA or Postal posts its events, as that provider sends them. No API key: the provider’s own signature or credentials authenticate the request. Answered 200 only once every bounce and complaint of the request is queued; anything else is retried by the provider.',
    request: {
      params: feedParamsSchema,
      body: jsonRequest(feedBodySchema, {
        examples: exampleFeedBodies,
        description: 'The provider’s payload, verbatim (SNS posts it as `text/plain`).',
      }),
    },
    responses: {
      200: {
        description: 'Verified, and every event queued (or acknowledged).',
        content: {
          [JSON_TYPE]: { schema: feedDeliverySchema, example: { object: 'feed_delivery', queued: 2, ignored: 0 } },
        },
      },
      ...errorResponses(
        'invalid_payload',
        'invalid_signature',
        'not_found',
        'method_not_allowed',
        'payload_too_large',
        'validation_error',
        'internal_server_error',
        'service_unavailable',
      ),
    },
  },
  handler:
    ({ db, receiver, sink }) =>
    async (req, res) => {
      const feed = await findFeed(db, pathParameter(req, 'feed_id'));
      if (!feed) throw new AppError('not_found', 'Feed not found.');
      res.locals.feedProvider = feed.provider;
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const delivery = await receiver.receive(feed, { headers: req.headers, body }, sink);
      res.json({ object: 'feed_delivery', ...delivery });
    },
};
