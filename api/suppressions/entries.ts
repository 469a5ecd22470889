import {
  removalResultSchema,
  suppressionListSchema,
  suppressionRefSchema,
  suppressionSchema,
  type RemovalResult,
  type SuppressionPage,
  type SuppressionRef,
  type SuppressionResource,
} from '../../src/contract/suppression.js';
import { newId } from '../../src/domain/ids.js';
import { AppError } from '../../src/errors.js';
import { toSuppressionResource } from '../../src/suppressions/suppression.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import { addSuppressions, listSuppressions } from '../../src/suppressions/suppression-repository.js';
import { accountOf, actorOf, callerOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleIds, exampleManualSuppression, exampleSuppression } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { jsonRequest } from '../openapi/requests.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses, jsonAnswer } from '../openapi/responses.js';
import { refuseAllowlisted } from './allowlist-guard.js';
import type { SuppressionsDeps } from './deps.js';
import {
  addBodySchema,
  listQuerySchema,
  removalQuerySchema,
  retrieveQuerySchema,
  suppressionParamsSchema,
} from './schemas.js';
import { entryNotFound } from './not-found.js';
import { pathTarget, removedOrRefused, requireEmail } from './targets.js';

const tags = ['Suppressions'];

export const listSuppressionsEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'get',
  path: '/',
  access: 'full',
  doc: {
    operationId: 'listSuppressions',
    tags,
    summary: 'List suppressions',
    description:
      'Newest first. `after` pages towards older entries, `before` towards newer ones; the cursor entry is excluded. The filters (`origin`, `scope`, `email`, `domain`, `created_after`, `created_before`) combine with each other and with the cursors. Without `scope`, the entries of every scope are listed, each showing its own.',
    request: { query: listQuerySchema },
    responses: {
      200: jsonAnswer('A page of suppressions.', suppressionListSchema, {
        object: 'list',
        has_more: true,
        data: [exampleManualSuppression, exampleSuppression],
      }),
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ reads }) =>
    async (req, res) => {
      const { created_after, created_before, ...query } = parseInput(listQuerySchema, req.query);
      const accountId = accountOf(res);
      const page = await reads.forAccount(accountId, (db) =>
        listSuppressions(db, { accountId, ...query, createdAfter: created_after, createdBefore: created_before }),
      );
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.entries.map(toSuppressionResource),
      } satisfies SuppressionPage);
    },
};

export const addSuppressionEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'post',
  path: '/',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'addSuppression',
    tags,
    summary: 'Add one suppression',
    description:
      'An address already on the list in that scope keeps its entry; its id is returned. Without `scope` the entry is for the whole account: every send to the address is stopped.',
    request: {
      headers: idempotencyHeaders,
      body: jsonRequest(addBodySchema, { example: { email: 'Unsubscribed@Example.org' } }),
    },
    responses: {
      201: jsonAnswer('The suppression (new or already present).', suppressionRefSchema, {
        object: 'suppression',
        id: exampleIds[1],
      }),
      ...errorResponses('allowlisted', ...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const body = parseInput(addBodySchema, req.body);
      const email = requireEmail(body.email, 'email');
      await refuseAllowlisted(db, accountOf(res), [email]);
      const [added] = await addSuppressions(
        db,
        accountOf(res),
        [{ id: newId(), email, origin: 'manual', sourceId: null, scope: body.scope ?? null }],
        actorOf(res),
      );
      await reads.wrote(accountOf(res));
      // One entry in, one out: the statement answers for every address it is given.
      if (!added) throw new AppError('service_unavailable');
      res.status(201).json({ object: 'suppression', id: added.id } satisfies SuppressionRef);
    },
};

/** Lookups are by far the most frequent request: one batched query per account and tick. */
export const getSuppressionEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'get',
  path: '/:suppression',
  access: 'full',
  doc: {
    operationId: 'getSuppression',
    tags,
    summary: 'Retrieve a suppression by id or email address',
    description:
      "By address, the entry of the scope named by `scope`, else the whole account's: 404 when the address has only entries of other scopes, whose message then names them.",
    request: { params: suppressionParamsSchema, query: retrieveQuerySchema },
    responses: {
      200: jsonAnswer('The suppression.', suppressionSchema, exampleSuppression),
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ lookups, reads }) =>
    async (req, res) => {
      const target = pathTarget(req);
      const { scope } = parseInput(retrieveQuerySchema, req.query);
      const accountId = accountOf(res);
      // The filter may show the address on no scope's list: then the 404 needs no query at all.
      if ('email' in target && scope === undefined && (await lookups.unlisted(accountId, target.email)))
        throw new AppError('not_found');
      const found =
        'id' in target
          ? await lookups.byId(accountId, target.id)
          : await lookups.byEmail(accountId, target.email, scope ?? null);
      if (!found) throw await reads.forAccount(accountId, (db) => entryNotFound(db, accountId, target, scope));
      res.json(toSuppressionResource(found) satisfies SuppressionResource);
    },
};

export const removeSuppressionEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'delete',
  path: '/:suppression',
  access: 'full',
  doc: {
    operationId: 'removeSuppression',
    tags,
    summary: 'Remove a suppression by id or email address',
    description:
      'An entry a complaint put on the list is removed only with `force=true` and a `reason` (409 `complaint_protected` otherwise): a complaint is the one entry a sender must not undo lightly. A `reason` may be given for any removal; it is kept in the entry’s history.',
    request: { params: suppressionParamsSchema, query: removalQuerySchema },
    responses: {
      200: jsonAnswer('The suppression was removed.', removalResultSchema, {
        object: 'suppression',
        id: exampleIds[0],
        deleted: true,
      }),
      ...errorResponses('not_found', 'complaint_protected', ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const target = pathTarget(req);
      const query = parseInput(removalQuerySchema, req.query);
      const { accountId, keyId } = callerOf(res);
      const removal = await removeSuppressions(
        db,
        accountId,
        'id' in target ? { ids: [target.id] } : { emails: [target.email], scope: query.scope ?? null },
        { keyId, force: query.force ?? false, reason: query.reason ?? null, actor: actorOf(res) },
      );
      await reads.wrote(accountId);
      const [id] = removedOrRefused(removal, 'query');
      if (id === undefined) throw await entryNotFound(db, accountId, target, query.scope);
      res.json({ object: 'suppression', id, deleted: true } satisfies RemovalResult);
    },
};
