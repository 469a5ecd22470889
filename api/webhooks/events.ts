import {
  attemptListSchema,
  eventListSchema,
  webhookEventSchema,
  type AttemptPage,
  type EventLogPage,
  type WebhookEventResource,
} from '../../src/contract/webhook-event.js';
import { UnknownCursorError } from '../../src/db/keyset-page.js';
import { invalidField } from '../../src/errors.js';
import { listAttempts, listDeliveries } from '../../src/webhooks/event-log.js';
import { toAttemptResource, toEventLogEntry, toWebhookEventResource } from '../../src/webhooks/event-log-resources.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleAttempt, exampleEventIds, exampleWebhookEvent } from '../openapi/examples.js';
import { authenticatedErrors, jsonAnswer } from '../openapi/responses.js';
import type { WebhooksDeps } from './deps.js';
import { requireDelivery, requireWebhook } from './lookups.js';
import { attemptListQuerySchema, eventListQuerySchema, eventParamsSchema, webhookParamsSchema } from './schemas.js';

const tags = ['Webhooks'];

export const listEventsEndpoint: Endpoint<WebhooksDeps> = {
  method: 'get',
  path: '/:webhook_id/events',
  access: 'full',
  doc: {
    operationId: 'listWebhookEvents',
    tags,
    summary: 'List a webhook’s event log',
    description:
      'One entry per change delivered (or to be delivered) to the webhook, newest change first. A cursor is an event id of this webhook; any other is a 422.',
    request: { params: webhookParamsSchema, query: eventListQuerySchema },
    responses: {
      200: jsonAnswer('A page of events.', eventListSchema, {
        object: 'list',
        has_more: true,
        data: [
          {
            id: exampleEventIds[1],
            type: 'suppression.removed',
            created_at: '2026-03-14T10:07:03.881Z',
            status: 'success',
          },
          {
            id: exampleEventIds[0],
            type: 'suppression.added',
            created_at: '2026-03-14T10:05:42.117Z',
            status: 'attempting',
          },
        ],
      }),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const webhook = await requireWebhook(db, req, res);
      const query = parseInput(eventListQuerySchema, req.query);
      try {
        const page = await listDeliveries(db, webhook.id, query);
        res.json({
          object: 'list',
          has_more: page.hasMore,
          data: page.deliveries.map(toEventLogEntry),
        } satisfies EventLogPage);
      } catch (error) {
        if (error instanceof UnknownCursorError)
          throw invalidField(error.parameter, 'is not an event of this webhook.');
        throw error;
      }
    },
};

export const getEventEndpoint: Endpoint<WebhooksDeps> = {
  method: 'get',
  path: '/:webhook_id/events/:event_id',
  access: 'full',
  doc: {
    operationId: 'getWebhookEvent',
    tags,
    summary: 'Retrieve an event, with its payload',
    request: { params: eventParamsSchema },
    responses: {
      200: jsonAnswer('The event.', webhookEventSchema, exampleWebhookEvent),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const delivery = await requireDelivery(db, req, res);
      res.json(toWebhookEventResource(delivery) satisfies WebhookEventResource);
    },
};

export const listAttemptsEndpoint: Endpoint<WebhooksDeps> = {
  method: 'get',
  path: '/:webhook_id/events/:event_id/attempts',
  access: 'full',
  doc: {
    operationId: 'listWebhookEventAttempts',
    tags,
    summary: 'List the attempts to deliver an event',
    description: 'Newest first; every round of retries, replays included.',
    request: { params: eventParamsSchema, query: attemptListQuerySchema },
    responses: {
      200: jsonAnswer('A page of attempts.', attemptListSchema, {
        object: 'list',
        has_more: false,
        data: [exampleAttempt],
      }),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const delivery = await requireDelivery(db, req, res);
      const query = parseInput(attemptListQuerySchema, req.query);
      const page = await listAttempts(db, delivery.id, query);
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.attempts.map(toAttemptResource),
      } satisfies AttemptPage);
    },
};
