import { MAX_BATCH_ITEMS } from '../../src/contract/limits.js';
import {
  batchAddResultSchema,
  batchRemoveResultSchema,
  type BatchAddResult,
  type BatchRemoveResult,
} from '../../src/contract/suppression.js';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import { accountOf, actorOf, callerOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleIds } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { jsonRequest } from '../openapi/requests.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses, jsonAnswer } from '../openapi/responses.js';
import { refuseAllowlisted } from './allowlist-guard.js';
import type { SuppressionsDeps } from './deps.js';
import { batchAddBodySchema, batchRemoveBodySchema } from './schemas.js';
import { removedOrRefused, requireEmails } from './targets.js';

export const batchAddEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'post',
  path: '/batch/add',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'addSuppressionsBatch',
    tags: ['Suppressions'],
    summary: `Add 1 to ${MAX_BATCH_ITEMS} addresses`,
    description:
      'Addresses are normalised and collapsed; one invalid address rejects the whole request (422) and nothing is written.',
    request: {
      headers: idempotencyHeaders,
      body: jsonRequest(batchAddBodySchema, {
        example: { emails: ['bounced@example.com', 'Unsubscribed@Example.org'] },
      }),
    },
    responses: {
      201: jsonAnswer(
        'One entry per distinct address, in first-seen order; existing entries keep their id.',
        batchAddResultSchema,
        {
          data: [
            { object: 'suppression', id: exampleIds[0] },
            { object: 'suppression', id: exampleIds[1] },
          ],
        },
      ),
      ...errorResponses('allowlisted', ...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const body = parseInput(batchAddBodySchema, req.body);
      const emails = requireEmails(body.emails, 'emails');
      await refuseAllowlisted(db, accountOf(res), emails);
      const added = await addSuppressions(
        db,
        accountOf(res),
        emails.map((email) => ({
          id: newId(),
          email,
          origin: 'manual' as const,
          sourceId: null,
          scope: body.scope ?? null,
        })),
        actorOf(res),
      );
      await reads.wrote(accountOf(res));
      res.status(201).json({ data: added.map(({ id }) => ({ object: 'suppression', id })) } satisfies BatchAddResult);
    },
};

export const batchRemoveEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'post',
  path: '/batch/remove',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'removeSuppressionsBatch',
    tags: ['Suppressions'],
    summary: `Remove 1 to ${MAX_BATCH_ITEMS} suppressions by email or by id`,
    description:
      'Send either `emails` or `ids`, not both. Entries that match nothing are left out of `data`. If any entry was put on the list by a complaint, nothing is removed and the answer is 409 `complaint_protected` naming those entries, unless the body says `force: true` with a `reason`. A `reason` given is kept in each removed entry’s history.',
    request: {
      headers: idempotencyHeaders,
      body: jsonRequest(batchRemoveBodySchema, {
        examples: {
          byEmail: {
            summary: 'By email address',
            value: { emails: ['bounced@example.com', 'unsubscribed@example.org'] },
          },
          byId: { summary: 'By id', value: { ids: [exampleIds[0], exampleIds[2]] } },
        },
      }),
    },
    responses: {
      200: jsonAnswer('One entry per removed suppression.', batchRemoveResultSchema, {
        data: [{ object: 'suppression', id: exampleIds[0], deleted: true }],
      }),
      ...errorResponses('complaint_protected', ...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const body = parseInput(batchRemoveBodySchema, req.body);
      const { accountId, keyId } = callerOf(res);
      const target = body.ids
        ? { ids: [...new Set(body.ids)] }
        : { emails: requireEmails(body.emails ?? [], 'emails'), scope: body.scope ?? null };
      const removal = await removeSuppressions(db, accountId, target, {
        keyId,
        actor: actorOf(res),
        force: body.force ?? false,
        reason: body.reason ?? null,
      });
      await reads.wrote(accountId);
      const removed = removedOrRefused(removal, 'body');
      res.json({
        data: removed.map((id) => ({ object: 'suppression', id, deleted: true })),
      } satisfies BatchRemoveResult);
    },
};
