import { Router, type Request, type RequestHandler } from 'express';
import type { ReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import { classifyBounce, CLASSIFIER_VERSION } from '../../src/bounces/classify-bounce.js';
import { bounceSummary } from '../../src/bounces/summary.js';
import type { Database } from '../../src/db/database.js';
import {
  createReclassification,
  findReclassification,
  finishReclassification,
  toReclassificationResource,
} from '../../src/bounces/reclassification-repository.js';
import { getSettings } from '../../src/policy/settings-repository.js';
import { newId } from '../../src/domain/ids.js';
import { AppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import {
  classifyBodySchema,
  reclassificationBodySchema,
  reclassificationParamsSchema,
  summaryQuerySchema,
} from './schemas.js';
import { accountOf } from '../http/authenticate.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import { parseInput } from '../http/validation.js';

/** Where `bouncesRouter` is mounted. */
export const BOUNCES_PATH = '/bounces';

/** A sending key may ask what a bounce is, as a mail system does before it retries; nothing else here. */
export function isSendingBounceRequest(req: Request): boolean {
  return req.method === 'POST' && req.path === '/classify';
}

export interface BouncesOptions {
  db: Database;
  logger: Logger;
  /** Queues reclassifications for the workers; without it, they answer 503. */
  reclassifications?: Pick<ReclassificationQueue, 'queue'> | undefined;
}

/**
 * The bounce classifier on demand, an account's bounce summary, and reclassifications of its
 * stored records. `guards` (authentication, rate limiting, body parsing) run first for every
 * request that reaches the router; `mountPath` names the routes in metrics and logs.
 */
export function bouncesRouter(
  options: BouncesOptions,
  guards: readonly RequestHandler[] = [],
  mountPath = BOUNCES_PATH,
): Router {
  const { db, logger, reclassifications } = options;
  const router = Router();
  if (guards.length > 0) router.use(...guards);

  namedRoute(router, mountPath, '/classify')
    .post(async (req, res) => {
      const { bounces } = parseInput(classifyBodySchema, req.body);
      const { bounce_actions: actions } = await getSettings(db, accountOf(res));
      res.json({
        object: 'list',
        data: bounces.map((evidence) => {
          const { category, reason, rule } = classifyBounce(evidence);
          return { object: 'bounce_classification', category, reason, rule, action: actions[category] };
        }),
      });
    })
    .all(methodNotAllowed('POST'));

  namedRoute(router, mountPath, '/summary')
    .get(async (req, res) => {
      const { since, until } = parseInput(summaryQuerySchema, req.query);
      res.json(await bounceSummary(db, accountOf(res), since, until));
    })
    .all(methodNotAllowed('GET'));

  namedRoute(router, mountPath, '/reclassifications')
    .post(async (req, res) => {
      const { dry_run } = parseInput(reclassificationBodySchema, req.body ?? {});
      if (!reclassifications) {
        throw new AppError('service_unavailable', 'Reclassifications are not available: no queue is configured.');
      }
      const accountId = accountOf(res);
      const run = await createReclassification(db, {
        id: newId(),
        accountId,
        dryRun: dry_run,
        classifierVersion: CLASSIFIER_VERSION,
      });
      try {
        await reclassifications.queue(run.id);
      } catch (error) {
        logger.warn({ err: error, reclassification: run.id }, 'a reclassification could not be queued');
        await finishReclassification(db, run.id, 'The queue was unavailable: the run was not started.');
        throw new AppError(
          'service_unavailable',
          'The queue is unavailable: the reclassification was not started. Try again shortly.',
        );
      }
      res.status(202).json(toReclassificationResource(run));
    })
    .all(methodNotAllowed('POST'));

  namedRoute(router, mountPath, '/reclassifications/:id')
    .get(async (req, res) => {
      const { id } = parseInput(reclassificationParamsSchema, req.params);
      const run = await findReclassification(db, accountOf(res), id);
      if (!run) throw new AppError('not_found', 'Reclassification not found.');
      res.json(toReclassificationResource(run));
    })
    .all(methodNotAllowed('GET'));

  return router;
}
