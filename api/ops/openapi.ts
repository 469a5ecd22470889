import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { healthSchema, readinessSchema } from '../../src/contract/operations.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';

/** Health, readiness, metrics and this reference: the operations without an API key. */
export const operationRoutes: RouteConfig[] = [
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
