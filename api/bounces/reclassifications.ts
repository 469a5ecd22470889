import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import {
  createReclassification,
  findReclassification,
  finishReclassification,
  toReclassificationResource,
} from '../../src/bounces/reclassification-repository.js';
import { reclassificationSchema, type ReclassificationResource } from '../../src/contract/bounces.js';
import { newId } from '../../src/domain/ids.js';
import { AppError } from '../../src/errors.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import type { BouncesDeps } from './deps.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import { exampleReclassification as reclassification } from './examples.js';
import { reclassificationBodySchema, reclassificationParamsSchema } from './schemas.js';

const tags = ['Bounces'];

export const startReclassificationEndpoint: Endpoint<BouncesDeps> = {
  method: 'post',
  path: '/reclassifications',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'reclassifyBounces',
    tags,
    summary: 'Lift the bounce entries no recorded evidence supports any more',
    description:
      'Runs the current classifier and the account’s current settings over its stored bounce and complaint records, and lifts every entry of origin `bounce` that none of them supports any more, each with a removal record (`removal_reason: "reclassified"`) and a `suppression.removed` change. Entries of origin `complaint` or `manual`, and bounce entries with no record at all (imported, added by hand), are never touched. A bounce or complaint recorded while the run works keeps its entry: a batch whose entries get new evidence before it commits is rolled back and judged again. `dry_run` defaults to `true`: it only counts what a run would lift. The run happens in the workers; follow it at `GET /bounces/reclassifications/{id}`.',
    request: {
      body: jsonRequest(reclassificationBodySchema, { example: { dry_run: false }, required: false }),
    },
    responses: {
      202: jsonAnswer('The run, queued.', reclassificationSchema, {
        ...reclassification,
        status: 'queued',
        entries_total: null,
        entries_examined: 0,
        entries_without_evidence: 0,
        records_examined: 0,
        lifted: 0,
        lifted_by_category: {},
        records_by_category: {},
        started_at: null,
        finished_at: null,
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  handler:
    ({ db, logger, reclassifications }) =>
    async (req, res) => {
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
      res.status(202).json(toReclassificationResource(run) satisfies ReclassificationResource);
    },
};

export const getReclassificationEndpoint: Endpoint<BouncesDeps> = {
  method: 'get',
  path: '/reclassifications/:id',
  access: 'full',
  doc: {
    operationId: 'getReclassification',
    tags,
    summary: 'Follow a reclassification',
    request: { params: reclassificationParamsSchema },
    responses: {
      200: jsonAnswer('The run.', reclassificationSchema, reclassification),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const { id } = parseInput(reclassificationParamsSchema, req.params);
      const run = await findReclassification(db, accountOf(res), id);
      if (!run) throw new AppError('not_found', 'Reclassification not found.');
      // The workers lift the entries: a client that saw the run finished finds them lifted.
      await reads?.wrote(accountOf(res));
      res.json(toReclassificationResource(run) satisfies ReclassificationResource);
    },
};
