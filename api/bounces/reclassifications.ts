import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import {
  createReclassification,
  findReclassification,
  finishReclassification,
  toReclassificationResource,
} from '../../src/bounces/reclassification-repository.js';
import {
  listReclassificationEntries,
  toReclassificationEntryResource,
} from '../../src/bounces/reclassification-entries.js';
import { reclassificationSchema, type ReclassificationResource } from '../../src/contract/bounces.js';
import {
  reclassificationEntryListSchema,
  type ReclassificationEntryPage,
} from '../../src/contract/reclassification-entries.js';
import { newId } from '../../src/domain/ids.js';
import { AppError } from '../../src/errors.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import type { BouncesDeps } from './deps.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import { exampleReclassification as reclassification } from './examples.js';
import {
  reclassificationBodySchema,
  reclassificationEntriesQuerySchema,
  reclassificationParamsSchema,
} from './schemas.js';

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

const exampleEntry = {
  object: 'bounce_reclassification_entry',
  id: '01a21088-9a00-7000-8000-00000000c0de',
  email: 'pat@hotmail.com',
  category: 'sender_blocked',
  reason: 'blocklisted',
  rule: 'text:block list',
  bounces: 1,
  latest_bounce: {
    type: 'permanent',
    sub_type: 'General',
    status: '5.7.1',
    reply_code: null,
    diagnostic:
      "smtp; 550 5.7.1 Unfortunately, messages from [203.0.113.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    provider: 'ses',
    remote_mta: null,
    occurred_at: '2026-11-22T02:28:52.327Z',
  },
} as const;

export const listReclassificationEntriesEndpoint: Endpoint<BouncesDeps> = {
  method: 'get',
  path: '/reclassifications/:id/entries',
  access: 'full',
  doc: {
    operationId: 'listReclassificationEntries',
    tags,
    summary: 'Review the entries a reclassification lifts',
    description:
      'The entries the run lifted, or in a dry run would lift, each with the category, reason and rule the classifier gives its latest bounce now, that bounce’s evidence, and how many bounces the run judged: what an operator reviews before running it for real. The list grows as the run goes (a run started again starts it again), and stays once the run has ended; a real run’s entries are gone from the list of suppressions, and their histories keep them.',
    request: { params: reclassificationParamsSchema, query: reclassificationEntriesQuerySchema },
    responses: {
      200: jsonAnswer('A page of the run’s entries.', reclassificationEntryListSchema, {
        object: 'list',
        has_more: false,
        data: [exampleEntry],
      }),
      ...authenticatedErrors('not_found'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const { id } = parseInput(reclassificationParamsSchema, req.params);
      const query = parseInput(reclassificationEntriesQuerySchema, req.query);
      const run = await findReclassification(db, accountOf(res), id);
      if (!run) throw new AppError('not_found', 'Reclassification not found.');
      const page = await listReclassificationEntries(db, run.id, query);
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.entries.map(toReclassificationEntryResource),
      } satisfies ReclassificationEntryPage);
    },
};
