import type { Endpoint } from '../http/endpoints.js';
import { errorResponses } from '../openapi/responses.js';
import type { ProbeDeps } from './deps.js';
import { bearerToken, presentsToken, unauthorized } from './tokens.js';

/** Public unless the operator sets METRICS_TOKEN, which the document shows as an optional scheme. */
export const metricsEndpoint: Endpoint<ProbeDeps> = {
  method: 'get',
  path: '/metrics',
  access: 'public',
  doc: {
    operationId: 'metrics',
    tags: ['Operations'],
    summary: 'Prometheus metrics',
    description:
      'Request durations, addresses checked, events posted by type, events and batch entries by outcome, queue depths and the age of the oldest waiting job, readiness of the database and Redis, pool usage, rate-limit rejections.',
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
      ...errorResponses('unauthorized', 'method_not_allowed', 'rate_limit_exceeded'),
    },
  },
  handler:
    ({ metrics, metricsToken, failureLimit }) =>
    async (req, res) => {
      if (metricsToken !== undefined && !(await presentsToken(req, bearerToken(req), metricsToken, failureLimit))) {
        throw unauthorized('metrics endpoint', '`Authorization: Bearer <METRICS_TOKEN>`');
      }
      const body = await metrics.registry.metrics();
      res.set('Content-Type', metrics.registry.contentType).send(body);
    },
};
