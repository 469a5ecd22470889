import {
  webhookListSchema,
  webhookRefSchema,
  webhookRemovalSchema,
  webhookSchema,
  webhookSecretSchema,
  type WebhookPage,
  type WebhookRef,
  type WebhookRemoval,
  type WebhookResource,
  type WebhookSecret,
} from '../../src/contract/webhook.js';
import { createWebhook, listWebhooks, removeWebhook, updateWebhook } from '../../src/webhooks/webhook-repository.js';
import { toListedWebhook, toWebhookResource } from '../../src/webhooks/webhook.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleListedWebhook, exampleSigningSecret, exampleWebhook, exampleWebhookIds } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { WebhooksDeps } from './deps.js';
import { checkedEndpoint, requireWebhook, webhookIdOf, webhookNotFound } from './lookups.js';
import {
  createWebhookBodySchema,
  updateWebhookBodySchema,
  webhookListQuerySchema,
  webhookParamsSchema,
} from './schemas.js';

const tags = ['Webhooks'];

/** What `checkedEndpoint` enforces, as the documentation of the operations that take an endpoint says it. */
const endpointRule =
  '`endpoint` must be an absolute `https://` URL without credentials whose host is, and resolves only to, public addresses (or, where the service lists private ranges in `WEBHOOKS_PRIVATE_CIDRS`, addresses in those; with `WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS=true`, `http://` and every private address), never a cloud metadata address. An IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) is judged by that IPv4 address.';

export const listWebhooksEndpoint: Endpoint<WebhooksDeps> = {
  method: 'get',
  path: '/',
  access: 'full',
  doc: {
    operationId: 'listWebhooks',
    tags,
    summary: 'List webhooks',
    description:
      'Newest first, without signing secrets. `after` pages towards older webhooks, `before` towards newer ones; the cursor webhook is excluded.',
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
  handler:
    ({ db }) =>
    async (req, res) => {
      const query = parseInput(webhookListQuerySchema, req.query);
      const page = await listWebhooks(db, { accountId: accountOf(res), ...query });
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.webhooks.map(toListedWebhook),
      } satisfies WebhookPage);
    },
};

export const createWebhookEndpoint: Endpoint<WebhooksDeps> = {
  method: 'post',
  path: '/',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'createWebhook',
    tags,
    summary: 'Create a webhook',
    description: `Change events of the account (\`suppression.added\`, \`suppression.removed\`) are posted to \`endpoint\`, signed with the secret returned. ${endpointRule}`,
    request: {
      headers: idempotencyHeaders,
      body: jsonRequest(createWebhookBodySchema, {
        example: { endpoint: 'https://hooks.example.com/suppressions', events: ['suppression.added'] },
      }),
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
  handler:
    ({ db, allowPrivateEndpoints, privateCidrs }) =>
    async (req, res) => {
      const body = parseInput(createWebhookBodySchema, req.body);
      const endpoint = await checkedEndpoint(body.endpoint, { allowPrivateEndpoints, privateCidrs });
      const webhook = await createWebhook(db, { accountId: accountOf(res), endpoint, events: body.events });
      res
        .status(201)
        .json({ object: 'webhook', id: webhook.id, signing_secret: webhook.signingSecret } satisfies WebhookSecret);
    },
};

export const getWebhookEndpoint: Endpoint<WebhooksDeps> = {
  method: 'get',
  path: '/:webhook_id',
  access: 'full',
  doc: {
    operationId: 'getWebhook',
    tags,
    summary: 'Retrieve a webhook, with its signing secret',
    request: { params: webhookParamsSchema },
    responses: {
      200: jsonAnswer('The webhook.', webhookSchema, exampleWebhook),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      res.json(toWebhookResource(await requireWebhook(db, req, res)) satisfies WebhookResource);
    },
};

export const updateWebhookEndpoint: Endpoint<WebhooksDeps> = {
  method: 'patch',
  path: '/:webhook_id',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'updateWebhook',
    tags,
    summary: 'Change a webhook’s endpoint, events or status',
    description: `At least one of the fields; those left out keep their value. ${endpointRule}`,
    request: {
      params: webhookParamsSchema,
      body: jsonRequest(updateWebhookBodySchema, {
        examples: {
          disable: { summary: 'Stop deliveries', value: { status: 'disabled' } },
          move: {
            summary: 'A new endpoint and events',
            value: { endpoint: 'https://hooks.example.com/v2/suppressions', events: ['suppression.removed'] },
          },
        },
      }),
    },
    responses: {
      200: jsonAnswer('The webhook was changed.', webhookRefSchema, { object: 'webhook', id: exampleWebhookIds[0] }),
      ...authenticatedErrors('not_found', 'payload_too_large'),
    },
  },
  handler:
    ({ db, allowPrivateEndpoints, privateCidrs }) =>
    async (req, res) => {
      // An unknown webhook is a 404 before its body is looked at.
      const id = webhookIdOf(req);
      const body = parseInput(updateWebhookBodySchema, req.body);
      const endpoint =
        body.endpoint === undefined
          ? undefined
          : await checkedEndpoint(body.endpoint, { allowPrivateEndpoints, privateCidrs });
      const updated = await updateWebhook(db, accountOf(res), id, { ...body, endpoint });
      if (!updated) throw webhookNotFound();
      res.json({ object: 'webhook', id: updated.id } satisfies WebhookRef);
    },
};

export const removeWebhookEndpoint: Endpoint<WebhooksDeps> = {
  method: 'delete',
  path: '/:webhook_id',
  access: 'full',
  doc: {
    operationId: 'removeWebhook',
    tags,
    summary: 'Remove a webhook and its event log',
    description: 'Its deliveries still due are dropped.',
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
  handler:
    ({ db }) =>
    async (req, res) => {
      const id = webhookIdOf(req);
      if (!(await removeWebhook(db, accountOf(res), id))) throw webhookNotFound();
      res.json({ object: 'webhook', id, deleted: true } satisfies WebhookRemoval);
    },
};
