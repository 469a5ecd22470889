import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { checkResultSchema } from '../../src/contract/check.js';
import { MAX_BATCH_ITEMS, MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import { batchAddResultSchema, batchRemoveResultSchema } from '../../src/contract/suppression.js';
import { batchAddBodySchema, batchRemoveBodySchema, checkBodySchema } from './schemas.js';
import { exampleIds, exampleSuppression } from '../openapi/examples.js';
import { idempotencyHeaders, rateLimitHeaders } from '../openapi/headers.js';
import { AUTHENTICATED_ERRORS, BEARER_SECURITY, BODY_ERRORS, errorResponses, JSON_TYPE } from '../openapi/responses.js';

/** The operations on many addresses at once: the send-time check and the batches. */
export const batchRoutes: RouteConfig[] = [
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
];
