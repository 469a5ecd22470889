import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { feedDeliverySchema } from '../../src/contract/operations.js';
import { exampleFeedBodies } from '../openapi/examples.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';

/** A provider's payload: an object (SNS, Postmark, Mailgun, Resend) or an array of events (SendGrid). */
const feedBodySchema = z
  .union([z.looseObject({}), z.array(z.looseObject({}))])
  .meta({ description: 'The provider’s payload, verbatim: verified over its raw bytes.' });

const feedParamsSchema = z.object({
  feed_id: z
    .string()
    .meta({ description: 'The feed id `feeds create` printed.', example: 'feed_3q2mXv8bLkP0cT7yWn1sRfUaHdE4jG6o' }),
});

/** `POST /feeds/{feed_id}`: the route reads the raw body itself, so these schemas only document it. */
export const feedRoutes: RouteConfig[] = [
  {
    method: 'post',
    path: '/feeds/{feed_id}',
    operationId: 'receiveFeed',
    tags: ['Feeds'],
    summary: 'A provider’s bounce and complaint webhook',
    description:
      'Where SES (through SNS), SendGrid, Postmark, Mailgun or Resend posts its events, as that provider sends them. No API key: the provider’s own signature or credentials authenticate the request. Answered 200 only once every bounce and complaint of the request is queued; anything else is retried by the provider.',
    security: [],
    request: {
      params: feedParamsSchema,
      body: {
        required: true,
        description: 'The provider’s payload, verbatim (SNS posts it as `text/plain`).',
        content: { [JSON_TYPE]: { schema: feedBodySchema, examples: exampleFeedBodies } },
      },
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
];
