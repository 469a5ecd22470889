import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import {
  attemptListQuerySchema,
  createWebhookBodySchema,
  eventListQuerySchema,
  eventParamsSchema,
  updateWebhookBodySchema,
  webhookListQuerySchema,
  webhookParamsSchema,
} from './schemas.js';
import {
  exampleAttempt,
  exampleEventIds,
  exampleListedWebhook,
  exampleSigningSecret,
  exampleWebhook,
  exampleWebhookEvent,
  exampleWebhookIds,
} from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { authenticatedErrors, BEARER_SECURITY, BODY_ERRORS, JSON_TYPE, jsonAnswer } from '../openapi/responses.js';
import {
  webhookListSchema,
  webhookRefSchema,
  webhookRemovalSchema,
  webhookSchema,
  webhookSecretSchema,
} from '../../src/contract/webhook.js';
import {
  attemptListSchema,
  eventListSchema,
  webhookEventRefSchema,
  webhookEventSchema,
} from '../../src/contract/webhook-event.js';

const tags = ['Webhooks'];

const endpointRule =
  '`endpoint` must be an absolute `https://` URL without credentials whose host is, and resolves only to, public addresses (unless the service runs with `WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS=true`, which allows `http://` and private addresses).';

/**
 * The `/webhooks` operations, as Resend's API and SDK (`resend.webhooks`) have them. A 404's example
 * shows the code's sentence, as every 404 of the document does; the answer itself says what was
 * not found ("Webhook not found.").
 */
export const webhookRoutes: RouteConfig[] = [
  {
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    tags,
    summary: 'List webhooks',
    description:
      'Newest first, without signing secrets. `after` pages towards older webhooks, `before` towards newer ones; the cursor webhook is excluded.',
    security: BEARER_SECURITY,
    request: { query: webhookListQuerySchema },
    responses: {
      200: jsonAnswer('A page of webhooks.', webhookListSchema, {
        object: 'list',
        has_more: false,
        data: [exampleListedWebhook],
      }),
      ...authenticatedErrors(),
    },
  },
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    tags,
    summary: 'Create a webhook',
    description: `Change events of the account (\`suppression.added\`, \`suppression.removed\`) are posted to \`endpoint\`, signed with the secret returned. ${endpointRule}`,
    security: BEARER_SECURITY,
    request: {
      headers: idempotencyHeaders,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: createWebhookBodySchema,
            example: { endpoint: 'https://hooks.example.com/suppressions', events: ['suppression.added'] },
          },
        },
      },
    },
    responses: {
      201: jsonAnswer('The new webhook, enabled, and its signing secret.', webhookSecretSchema, {
        object: 'webhook',
        id: exampleWebhookIds[0],
        signing_secret: exampleSigningSecret,
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/webhooks/{webhook_id}',
    operationId: 'getWebhook',
    tags,
    summary: 'Retrieve a webhook, with its signing secret',
    security: BEARER_SECURITY,
    request: { params: webhookParamsSchema },
    responses: {
      200: jsonAnswer('The webhook.', webhookSchema, exampleWebhook),
      ...authenticatedErrors('not_found'),
    },
  },
  {
    method: 'patch',
    path: '/webhooks/{webhook_id}',
    operationId: 'updateWebhook',
    tags,
    summary: 'Change a webhook’s endpoint, events or status',
    description: `At least one of the fields; those left out keep their value. ${endpointRule}`,
    security: BEARER_SECURITY,
    request: {
      params: webhookParamsSchema,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: updateWebhookBodySchema,
            examples: {
              disable: { summary: 'Stop deliveries', value: { status: 'disabled' } },
              move: {
                summary: 'A new endpoint and events',
                value: { endpoint: 'https://hooks.example.com/v2/suppressions', events: ['suppression.removed'] },
              },
            },
          },
        },
      },
    },
    responses: {
      200: jsonAnswer('The webhook was changed.', webhookRefSchema, { object: 'webhook', id: exampleWebhookIds[0] }),
      ...authenticatedErrors('not_found', 'payload_too_large'),
    },
  },
  {
    method: 'delete',
    path: '/webhooks/{webhook_id}',
    operationId: 'removeWebhook',
    tags,
    summary: 'Remove a webhook and its event log',
    description: 'Its deliveries still due are dropped.',
    security: BEARER_SECURITY,
    request: { params: webhookParamsSchema },
    responses: {
      200: jsonAnswer('The webhook was removed.', webhookRemovalSchema, {
        object: 'webhook',
        id: exampleWebhookIds[0],
        deleted: true,
      }),
      ...authenticatedErrors('not_found'),
    },
  },
  {
    method: 'post',
    path: '/webhooks/{webhook_id}/signing-secret/rotate',
    operationId: 'rotateWebhookSigningSecret',
    tags,
    summary: 'Issue a new signing secret',
    description:
      'Deliveries are signed with the new secret from now on, and for a day with the old one as well, so a receiver can switch over without dropping any.',
    security: BEARER_SECURITY,
    request: { params: webhookParamsSchema, headers: idempotencyHeaders },
    responses: {
      200: jsonAnswer('The new secret.', webhookSecretSchema, {
        object: 'webhook',
        id: exampleWebhookIds[0],
        signing_secret: 'whsec_q3Vx0nB5Yp1kR8tW2zC6mF9hJ4sL7dA0eG3iK5oN8uQ=',
      }),
      ...authenticatedErrors('not_found', ...BODY_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/webhooks/{webhook_id}/events',
    operationId: 'listWebhookEvents',
    tags,
    summary: 'List a webhook’s event log',
    description:
      'One entry per change delivered (or to be delivered) to the webhook, newest change first. A cursor is an event id of this webhook; any other is a 422.',
    security: BEARER_SECURITY,
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
  {
    method: 'get',
    path: '/webhooks/{webhook_id}/events/{event_id}',
    operationId: 'getWebhookEvent',
    tags,
    summary: 'Retrieve an event, with its payload',
    security: BEARER_SECURITY,
    request: { params: eventParamsSchema },
    responses: {
      200: jsonAnswer('The event.', webhookEventSchema, exampleWebhookEvent),
      ...authenticatedErrors('not_found'),
    },
  },
  {
    method: 'post',
    path: '/webhooks/{webhook_id}/events/{event_id}/replay',
    operationId: 'replayWebhookEvent',
    tags,
    summary: 'Deliver an event again',
    description:
      'Whatever its status, the event becomes `pending` with a new round of retries, and is attempted at once (or, when the delivery queue cannot take it, within a minute and a half). The payload, id and signature scheme are the same as before.',
    security: BEARER_SECURITY,
    request: { params: eventParamsSchema, headers: idempotencyHeaders },
    responses: {
      200: jsonAnswer('The event is due again.', webhookEventRefSchema, {
        object: 'webhook_event',
        id: exampleEventIds[0],
      }),
      ...authenticatedErrors('not_found', ...BODY_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/webhooks/{webhook_id}/events/{event_id}/attempts',
    operationId: 'listWebhookEventAttempts',
    tags,
    summary: 'List the attempts to deliver an event',
    description: 'Newest first; every round of retries, replays included.',
    security: BEARER_SECURITY,
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
];
