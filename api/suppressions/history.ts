import { auditRecordListSchema, type AuditRecordPage } from '../../src/contract/audit-record.js';
import { UnknownCursorError } from '../../src/db/keyset-page.js';
import { AppError, invalidField } from '../../src/errors.js';
import { toAuditRecordResource } from '../../src/suppressions/audit-record.js';
import { historyAddress, listHistory } from '../../src/suppressions/suppression-history.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleHistory } from '../openapi/examples.js';
import { AUTHENTICATED_ERRORS, errorResponses, jsonAnswer } from '../openapi/responses.js';
import type { SuppressionsDeps } from './deps.js';
import { historyQuerySchema, suppressionParamsSchema } from './schemas.js';
import { pathTarget } from './targets.js';

/** An address's audit trail: kept after its entry is removed, so `{suppression}` may name a gone entry. */
export const historyEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'get',
  path: '/:suppression/events',
  access: 'full',
  doc: {
    operationId: 'listSuppressionEvents',
    tags: ['Suppressions'],
    summary: 'The history of an address: its bounces, complaints and removals',
    description:
      'The audit records of the address, newest first (by the time they were recorded). An address is found whether or not it is on the list now; an id, through its entry, or, once the entry is removed, through the records that name it. `after` pages towards older records, `before` towards newer ones; a cursor is an `event_id` of this history.',
    request: { params: suppressionParamsSchema, query: historyQuerySchema },
    responses: {
      200: jsonAnswer('A page of the address’s audit records.', auditRecordListSchema, {
        object: 'list',
        has_more: false,
        data: exampleHistory,
      }),
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const target = pathTarget(req);
      const query = parseInput(historyQuerySchema, req.query);
      const accountId = accountOf(res);
      const email = await historyAddress(db, accountId, target);
      if (email === null) throw new AppError('not_found');
      try {
        const page = await listHistory(db, accountId, email, query);
        res.json({
          object: 'list',
          has_more: page.hasMore,
          data: page.records.map(toAuditRecordResource),
        } satisfies AuditRecordPage);
      } catch (error) {
        if (error instanceof UnknownCursorError)
          throw invalidField(error.parameter, "is not an event of this address's history.");
        throw error;
      }
    },
};
