import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { auditRecordListSchema } from '../../src/contract/audit-record.js';
import {
  removalResultSchema,
  suppressionListSchema,
  suppressionRefSchema,
  suppressionSchema,
} from '../../src/contract/suppression.js';
import { addBodySchema, exportQuerySchema, historyQuerySchema, listQuerySchema } from './schemas.js';
import { exampleHistory, exampleIds, exampleManualSuppression, exampleSuppression } from '../openapi/examples.js';
import { idempotencyHeaders, rateLimitHeaders } from '../openapi/headers.js';
import { AUTHENTICATED_ERRORS, BEARER_SECURITY, BODY_ERRORS, errorResponses, JSON_TYPE } from '../openapi/responses.js';

/** `{suppression}` of the paths: an id or an address, told apart by the route. */
export const suppressionParamsSchema = z.object({
  suppression: z.string().min(1).meta({
    description: 'A suppression id (UUID) or the suppressed email address (percent-encoded; `+` is literal).',
    example: '019cebab-8995-77f7-9262-77a618303564',
  }),
});

/** The operations on the list and on one entry; the request schemas are the ones the routes validate with. */
export const suppressionRoutes: RouteConfig[] = [
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
];
