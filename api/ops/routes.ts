import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Readiness } from '../../src/contract/operations.js';
import type { Database } from '../../src/db/database.js';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import type { Metrics } from '../../src/metrics.js';
import { methodNotAllowed } from '../http/errors.js';
import { nameMount, namedRoute } from '../http/route-pattern.js';
import { pageSecurityHeaders } from '../http/security-headers.js';
import type { RedisClient } from '../../src/redis.js';

export const ADMIN_PATH = '/admin/queues';
const READY_CHECK_TIMEOUT_MS = 1000;
const REALM = 'Basic realm="suppression-list"';

export interface OpsOptions {
  db: Database;
  metrics: Metrics;
  /** Answers PING for `/ready`; without it readiness checks the database only. */
  redis?: RedisClient | undefined;
  /** Both queues: shown in the dashboard. */
  queues?: readonly Queue[] | undefined;
  /** When set, `/metrics` requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
  /** When set, the dashboard is served at /admin/queues behind this token; unset, the path is 404. */
  adminToken?: string | undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'failed'> {
  try {
    await withTimeout(probe(), READY_CHECK_TIMEOUT_MS);
    return 'ok';
  } catch {
    return 'failed';
  }
}

/** Compares secrets in constant time (digests, so lengths never leak). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerToken(req: Request): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.get('authorization') ?? '')?.[1];
}

function basicPassword(req: Request): string | undefined {
  const encoded = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(req.get('authorization') ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

function unauthorized(endpoint: string, credentials: string): AppError {
  return new AppError('unauthorized', errorMessage('unauthorized', { endpoint, credentials }));
}

/** Bearer token, or HTTP Basic whose password is the token (any user name), so a browser can log in. */
function adminGuard(token: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = bearerToken(req) ?? basicPassword(req);
    if (given !== undefined && sameSecret(given, token)) {
      next();
      return;
    }
    res.set('WWW-Authenticate', REALM);
    throw unauthorized('queue dashboard', 'the admin token (Bearer, or Basic auth with the token as password)');
  };
}

/** `/ready`, `/metrics` and, when an admin token is configured, the queue dashboard. */
export function opsRouter(options: OpsOptions): Router {
  const router = Router();
  const { db, metrics, redis } = options;
  for (const queue of options.queues ?? []) metrics.trackQueue(queue);
  metrics.trackPool(db.pool);

  namedRoute(router, '', '/ready')
    .get(async (_req, res) => {
      const [database, redisCheck] = await Promise.all([
        check(() => db.ping()),
        redis ? check(() => redis.ping()) : Promise.resolve(undefined),
      ]);
      const checks = redisCheck === undefined ? { database } : { database, redis: redisCheck };
      const ready = Object.values(checks).every((value) => value === 'ok');
      res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks } satisfies Readiness);
    })
    .all(methodNotAllowed('GET'));

  namedRoute(router, '', '/metrics')
    .get(async (req, res) => {
      if (options.metricsToken !== undefined) {
        const given = bearerToken(req);
        if (given === undefined || !sameSecret(given, options.metricsToken)) {
          throw unauthorized('metrics endpoint', '`Authorization: Bearer <METRICS_TOKEN>`');
        }
      }
      const body = await metrics.registry.metrics();
      res.set('Content-Type', metrics.registry.contentType).send(body);
    })
    .all(methodNotAllowed('GET'));

  if (options.adminToken !== undefined) {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(ADMIN_PATH);
    createBullBoard({ queues: (options.queues ?? []).map((queue) => new BullMQAdapter(queue)), serverAdapter });
    router.use(
      ADMIN_PATH,
      nameMount(ADMIN_PATH),
      pageSecurityHeaders(),
      adminGuard(options.adminToken),
      serverAdapter.getRouter() as Router,
    );
  }
  return router;
}
