import { healthSchema, readinessSchema, type Readiness } from '../../src/contract/operations.js';
import type { Endpoint } from '../http/endpoints.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';
import type { ProbeDeps } from './deps.js';
import { withTimeout } from '../../src/with-timeout.js';

const READY_CHECK_TIMEOUT_MS = 1000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'failed'> {
  try {
    await withTimeout(probe(), READY_CHECK_TIMEOUT_MS);
    return 'ok';
  } catch {
    return 'failed';
  }
}

/** `SELECT 1` and Redis `PING` (when the app has Redis), each `ok` if it answered within 1 s: `/ready`'s checks, and the metric's. */
export async function readinessChecks({
  db,
  redis,
}: Pick<ProbeDeps, 'db' | 'redis'>): Promise<{ database: 'ok' | 'failed'; redis?: 'ok' | 'failed' }> {
  const [database, redisCheck] = await Promise.all([
    check(() => db.ping()),
    redis ? check(() => redis.ping()) : Promise.resolve(undefined),
  ]);
  return redisCheck === undefined ? { database } : { database, redis: redisCheck };
}

export const healthEndpoint: Endpoint<ProbeDeps> = {
  method: 'get',
  path: '/health',
  access: 'public',
  doc: {
    operationId: 'health',
    tags: ['Operations'],
    summary: 'Liveness: the process is up',
    responses: {
      200: { description: 'Up.', content: { [JSON_TYPE]: { schema: healthSchema, example: { status: 'ok' } } } },
      ...errorResponses('method_not_allowed'),
    },
  },
  handler: () => (_req, res) => {
    res.json({ status: 'ok' });
  },
};

export const readyEndpoint: Endpoint<ProbeDeps> = {
  method: 'get',
  path: '/ready',
  access: 'public',
  doc: {
    operationId: 'ready',
    tags: ['Operations'],
    summary: 'Readiness: PostgreSQL and Redis answer',
    responses: {
      200: {
        description: 'Ready.',
        content: {
          [JSON_TYPE]: {
            schema: readinessSchema,
            examples: {
              primary: {
                summary: 'Without replicas',
                value: { status: 'ok', checks: { database: 'ok', redis: 'ok' } },
              },
              replicas: {
                summary: 'With DATABASE_READ_URL: one replica in use, one down (the primary serves its reads)',
                value: {
                  status: 'ok',
                  checks: {
                    database: 'ok',
                    redis: 'ok',
                    replicas: [
                      { replica: '10.0.0.12:5432/suppressions', state: 'ok', lag_ms: 0 },
                      { replica: '10.0.0.13:5432/suppressions', state: 'down', lag_ms: null },
                    ],
                  },
                },
              },
            },
          },
        },
      },
      503: {
        description:
          'A dependency does not answer (`checks` says which), or the process is stopping: it finishes the requests and jobs it has, and takes no more once its listener closes.',
        content: {
          [JSON_TYPE]: {
            schema: readinessSchema,
            examples: {
              unavailable: {
                summary: 'Redis does not answer',
                value: { status: 'unavailable', checks: { database: 'ok', redis: 'failed' } },
              },
              stopping: {
                summary: 'Stopping after SIGTERM',
                value: { status: 'stopping', checks: { database: 'ok', redis: 'ok' } },
              },
            },
          },
        },
      },
      ...errorResponses('method_not_allowed'),
    },
  },
  handler: (deps) => async (_req, res) => {
    const checks = await readinessChecks(deps);
    const healthy = Object.values(checks).every((value) => value === 'ok');
    const status = deps.stopping?.() ? 'stopping' : healthy ? 'ok' : 'unavailable';
    // The monitor's last poll, at most 200 ms old: a replica costs /ready no query of its own.
    const replicaStates = deps.replicas
      ?.states()
      .map(({ replica, state, lagMs }) => ({ replica, state, lag_ms: lagMs }));
    res.status(status === 'ok' ? 200 : 503).json({
      status,
      checks: replicaStates === undefined ? checks : { ...checks, replicas: replicaStates },
    } satisfies Readiness);
  },
};
