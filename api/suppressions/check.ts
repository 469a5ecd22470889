import { checkResultSchema } from '../../src/contract/check.js';
import { MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import { distinctHashed } from '../../src/check-filter/hashed-addresses.js';
import { normalizedEmails } from '../../src/domain/email-batch.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleSuppression } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { jsonRequest } from '../openapi/requests.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses, jsonAnswer } from '../openapi/responses.js';
import type { SuppressionsDeps } from './deps.js';
import { checkBodySchema } from './schemas.js';

/**
 * The send-time check: the one request of the list a `sending_access` key may make, since a mail
 * system's send path calls it.
 */
export const checkEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'post',
  path: '/check',
  access: 'sending',
  body: 'json',
  doc: {
    operationId: 'checkSuppressions',
    tags: ['Suppressions'],
    summary: `Which of 1 to ${MAX_CHECK_ITEMS} addresses may be mailed`,
    description:
      'The send-time check, for `full_access` and `sending_access` keys alike; one request against the rate limit. Addresses are normalised and collapsed; an item that is not an address does not fail the request but is listed in `invalid`. Never a partial answer: if the database cannot answer, the whole request is 503.',
    request: {
      headers: idempotencyHeaders,
      body: jsonRequest(checkBodySchema, {
        example: { emails: ['Bounced@Example.com', 'jane@example.org', 'not-an-address', 'bounced@example.com'] },
      }),
    },
    responses: {
      200: jsonAnswer(
        'The suppressed addresses among those sent, and the items that are not addresses.',
        checkResultSchema,
        {
          object: 'suppression_check',
          checked: 2,
          suppressed: [exampleSuppression],
          invalid: [{ index: 2, email: 'not-an-address', reason: 'is not a valid email address' }],
        },
      ),
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS.filter((code) => code !== 'restricted_api_key')),
    },
  },
  handler:
    ({ lookups, metrics }) =>
    async (req, res) => {
      const body = parseInput(checkBodySchema, req.body);
      const { valid: normalized, invalid } = normalizedEmails(body.emails);
      // First-seen order in, first-seen order out: `suppressed` lists each address once, as it first appeared.
      const addresses = distinctHashed(normalized);
      const valid = addresses.emails;
      const found = await lookups.suppressing(accountOf(res), addresses, body.scope ?? null);
      const suppressed: string[] = [];
      for (const entry of found) if (entry !== null) suppressed.push(entry.resource);
      metrics.checkAddresses.inc({ result: 'suppressed' }, suppressed.length);
      metrics.checkAddresses.inc({ result: 'sendable' }, valid.length - suppressed.length);
      const invalidItems = invalid.map(({ index, value, reason }) => ({ index, email: value, reason }));
      // A `suppression_check`, written around the entries' resources, which come as JSON text.
      res
        .type('json')
        .send(
          `{"object":"suppression_check","checked":${valid.length},"suppressed":[${suppressed.join(',')}],"invalid":${JSON.stringify(invalidItems)}}`,
        );
    },
};
