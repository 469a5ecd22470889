import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import {
  addBodySchema,
  batchAddBodySchema,
  batchRemoveBodySchema,
  checkBodySchema,
  exportQuerySchema,
  historyQuerySchema,
  listQuerySchema,
  MAX_BATCH_ITEMS,
  MAX_CHECK_ITEMS,
} from '../suppressions/schemas.js';
import {
  exampleFeedBodies,
  exampleHistory,
  exampleIds,
  exampleManualSuppression,
  exampleSuppression,
} from './examples.js';
import { idempotencyHeaders, rateLimitHeaders } from './headers.js';
import { AUTHENTICATED_ERRORS, BEARER_SECURITY, BODY_ERRORS, errorResponses, JSON_TYPE } from './responses.js';
import {
  auditRecordListSchema,
  batchAddResultSchema,
  batchRemoveResultSchema,
  checkResultSchema,
  feedBodySchema,
  feedDeliverySchema,
  feedParamsSchema,
  healthSchema,
  readinessSchema,
  removalResultSchema,
  suppressionListSchema,
  suppressionParamsSchema,
  suppressionRefSchema,
  suppressionSchema,
} from './schemas.js';
import { consoleRoutes } from '../console/openapi.js';
import { importRoutes } from '../suppressions/import-openapi.js';
import { settingsRoutes } from '../settings/openapi.js';
import { bounceRoutes } from '../bounces/openapi.js';
import { webhookRoutes } from '../webhooks/openapi.js';

/** Every operation of the API. The request schemas are the ones the routes validate with. */
export const routes: RouteConfig[] = [
  {
    method: 'get',
    path: '/suppressions',
    operationId: 'listSuppressions',
    tags: ['Suppressions'],
    summary: 'List suppressions',
    description:
      'Newest first. `after` pages towards older entries, `before` towards newer ones; the cursor entry is excluded. The filters (`origin`, `email`, `domain`, `created_after`, `created_before`) combine with each other and with the cursors.',
    security: BEARER_SECURITY,
    request: { query: listQuerySchema },
    responses: {
      200: {
        description: 'A page of suppressions.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: suppressionListSchema,
            example: { object: 'list', has_more: true, data: [exampleManualSuppression, exampleSuppression] },
          },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/suppressions/export',
    operationId: 'exportSuppressions',
    tags: ['Suppressions'],
    summary: 'Export the list as a file',
    description:
      'Every entry (or every entry of one origin), newest first, streamed from a database cursor in constant memory, as `Content-Disposition: attachment`. One request of the rate limit however long it runs. A failure after the first bytes cuts the connection rather than ending the body.',
    security: BEARER_SECURITY,
    request: { query: exportQuerySchema },
    responses: {
      200: {
        description: 'The file: CSV with a header line, or NDJSON.',
        headers: rateLimitHeaders,
        content: {
          'text/csv': {
            schema: { type: 'string' },
            example: `id,email,origin,source_id,created_at\n${exampleSuppression.id},${exampleSuppression.email},${exampleSuppression.origin},${exampleSuppression.source_id ?? ''},${exampleSuppression.created_at}\n`,
          },
          'application/x-ndjson': {
            schema: { type: 'string' },
            example: `${JSON.stringify(exampleSuppression)}\n`,
          },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'post',
    path: '/suppressions',
    operationId: 'addSuppression',
    tags: ['Suppressions'],
    summary: 'Add one suppression',
    description: 'An address already on the list keeps its entry; its id is returned.',
    security: BEARER_SECURITY,
    request: {
      headers: idempotencyHeaders,
      body: {
        required: true,
        content: { [JSON_TYPE]: { schema: addBodySchema, example: { email: 'Unsubscribed@Example.org' } } },
      },
    },
    responses: {
      201: {
        description: 'The suppression (new or already present).',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: { schema: suppressionRefSchema, example: { object: 'suppression', id: exampleIds[1] } },
        },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/suppressions/{suppression}',
    operationId: 'getSuppression',
    tags: ['Suppressions'],
    summary: 'Retrieve a suppression by id or email address',
    security: BEARER_SECURITY,
    request: { params: suppressionParamsSchema },
    responses: {
      200: {
        description: 'The suppression.',
        headers: rateLimitHeaders,
        content: { [JSON_TYPE]: { schema: suppressionSchema, example: exampleSuppression } },
      },
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'get',
    path: '/suppressions/{suppression}/events',
    operationId: 'listSuppressionEvents',
    tags: ['Suppressions'],
    summary: 'The history of an address: its bounces, complaints and removals',
    description:
      'The audit records of the address, newest first (by the time they were recorded). An address is found whether or not it is on the list now; an id, through its entry, or, once the entry is removed, through the records that name it. `after` pages towards older records, `before` towards newer ones; a cursor is an `event_id` of this history.',
    security: BEARER_SECURITY,
    request: { params: suppressionParamsSchema, query: historyQuerySchema },
    responses: {
      200: {
        description: 'A page of the address’s audit records.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: auditRecordListSchema,
            example: { object: 'list', has_more: false, data: exampleHistory },
          },
        },
      },
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'delete',
    path: '/suppressions/{suppression}',
    operationId: 'removeSuppression',
    tags: ['Suppressions'],
    summary: 'Remove a suppression by id or email address',
    security: BEARER_SECURITY,
    request: { params: suppressionParamsSchema },
    responses: {
      200: {
        description: 'The suppression was removed.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: removalResultSchema,
            example: { object: 'suppression', id: exampleIds[0], deleted: true },
          },
        },
      },
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'post',
    path: '/suppressions/check',
    operationId: 'checkSuppressions',
    tags: ['Suppressions'],
    summary: `Which of 1 to ${MAX_CHECK_ITEMS} addresses may be mailed`,
    description:
      'The send-time check, for `full_access` and `sending_access` keys alike; one request against the rate limit. Addresses are normalised and collapsed; an item that is not an address does not fail the request but is listed in `invalid`. Never a partial answer: if the database cannot answer, the whole request is 503.',
    security: BEARER_SECURITY,
    request: {
      headers: idempotencyHeaders,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: checkBodySchema,
            example: { emails: ['Bounced@Example.com', 'jane@example.org', 'not-an-address', 'bounced@example.com'] },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The suppressed addresses among those sent, and the items that are not addresses.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: checkResultSchema,
            example: {
              object: 'suppression_check',
              checked: 2,
              suppressed: [exampleSuppression],
              invalid: [{ index: 2, email: 'not-an-address', reason: 'is not a valid email address' }],
            },
          },
        },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS.filter((code) => code !== 'restricted_api_key')),
    },
  },
  {
    method: 'post',
    path: '/suppressions/batch/add',
    operationId: 'addSuppressionsBatch',
    tags: ['Suppressions'],
    summary: `Add 1 to ${MAX_BATCH_ITEMS} addresses`,
    description:
      'Addresses are normalised and collapsed; one invalid address rejects the whole request (422) and nothing is written.',
    security: BEARER_SECURITY,
    request: {
      headers: idempotencyHeaders,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: batchAddBodySchema,
            example: { emails: ['bounced@example.com', 'Unsubscribed@Example.org'] },
          },
        },
      },
    },
    responses: {
      201: {
        description: 'One entry per distinct address, in first-seen order; existing entries keep their id.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: batchAddResultSchema,
            example: {
              data: [
                { object: 'suppression', id: exampleIds[0] },
                { object: 'suppression', id: exampleIds[1] },
              ],
            },
          },
        },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  {
    method: 'post',
    path: '/suppressions/batch/remove',
    operationId: 'removeSuppressionsBatch',
    tags: ['Suppressions'],
    summary: `Remove 1 to ${MAX_BATCH_ITEMS} suppressions by email or by id`,
    description: 'Send either `emails` or `ids`, not both. Entries that match nothing are left out of `data`.',
    security: BEARER_SECURITY,
    request: {
      headers: idempotencyHeaders,
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: batchRemoveBodySchema,
            examples: {
              byEmail: {
                summary: 'By email address',
                value: { emails: ['bounced@example.com', 'unsubscribed@example.org'] },
              },
              byId: { summary: 'By id', value: { ids: [exampleIds[0], exampleIds[2]] } },
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'One entry per removed suppression.',
        headers: rateLimitHeaders,
        content: {
          [JSON_TYPE]: {
            schema: batchRemoveResultSchema,
            example: { data: [{ object: 'suppression', id: exampleIds[0], deleted: true }] },
          },
        },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  ...importRoutes,
  ...webhookRoutes,
  ...settingsRoutes,
  ...bounceRoutes,
  ...consoleRoutes,
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
  {
    method: 'get',
    path: '/health',
    operationId: 'health',
    tags: ['Operations'],
    summary: 'Liveness: the process is up',
    security: [],
    responses: {
      200: { description: 'Up.', content: { [JSON_TYPE]: { schema: healthSchema, example: { status: 'ok' } } } },
      ...errorResponses('method_not_allowed'),
    },
  },
  {
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    tags: ['Operations'],
    summary: 'Readiness: PostgreSQL and Redis answer',
    security: [],
    responses: {
      200: {
        description: 'Ready.',
        content: {
          [JSON_TYPE]: { schema: readinessSchema, example: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } },
        },
      },
      503: {
        description: 'A dependency does not answer; `checks` says which.',
        content: {
          [JSON_TYPE]: {
            schema: readinessSchema,
            example: { status: 'unavailable', checks: { database: 'ok', redis: 'failed' } },
          },
        },
      },
      ...errorResponses('method_not_allowed'),
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tags: ['Operations'],
    summary: 'Prometheus metrics',
    description:
      'Request durations, events and batch entries by outcome, queue depths, pool usage, rate-limit rejections.',
    security: [{}, { metricsToken: [] }],
    responses: {
      200: {
        description: 'Prometheus text exposition format.',
        content: {
          'text/plain': {
            schema: { type: 'string' },
            example:
              'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/suppressions",status="200"} 42\n',
          },
        },
      },
      ...errorResponses('unauthorized', 'method_not_allowed'),
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    tags: ['Operations'],
    summary: 'This OpenAPI 3.1 document',
    security: [],
    responses: {
      200: { description: 'The document.', content: { [JSON_TYPE]: { schema: { type: 'object' } } } },
      ...errorResponses('method_not_allowed'),
    },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    tags: ['Operations'],
    summary: 'Readable API reference (Swagger UI, served locally)',
    security: [],
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  },
];

function buildRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key: `Authorization: Bearer <API_KEY>`. Every endpoint takes a `full_access` key; `POST /suppressions/check` also takes a `sending_access` key.',
  });
  registry.registerComponent('securitySchemes', 'consoleSession', {
    type: 'apiKey',
    in: 'cookie',
    name: 'sl_console_session',
    description:
      'The console’s session cookie, set by `POST /console/session`; requests that change something also carry `X-CSRF-Token`.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: '`Authorization: Bearer <METRICS_TOKEN>`, required by `/metrics` only when `METRICS_TOKEN` is set.',
  });
  for (const route of routes) registry.registerPath(route);
  return registry;
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

let cached: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document, generated once from the zod schemas. */
export function openApiDocument(): OpenApiDocument {
  cached ??= new OpenApiGeneratorV31(buildRegistry().definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Suppression List API',
      version: '0.1.0',
      description:
        'The suppression list of an email-sending service: addresses that must not be mailed after a bounce, a complaint or a manual decision.',
    },
    security: BEARER_SECURITY,
    tags: [
      { name: 'Suppressions' },
      {
        name: 'Webhooks',
        description:
          'Change events of the account’s list, posted to endpoints of its own and signed as Resend signs its webhooks; see docs/webhooks.md.',
      },
      {
        name: 'Settings',
        description:
          'The account’s suppression policy: a soft-bounce threshold and expiry per origin; see docs/events.md.',
      },
      {
        name: 'Console',
        description:
          'The web console’s session: an API key exchanged for a cookie; see docs/console.md. Its pages call the `/suppressions` operations at `/console/api/suppressions`.',
      },
      { name: 'Operations', description: 'Health, metrics and this reference; no API key.' },
    ],
  });
  return cached;
}
