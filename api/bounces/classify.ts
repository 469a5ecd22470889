import { setImmediate as nextTurn } from 'node:timers/promises';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { classificationListSchema, type ClassificationList } from '../../src/contract/bounces.js';
import { CLASSIFY_BODY_LIMIT_MIB, CLASSIFY_FIELD_LENGTHS, MAX_CLASSIFY_ITEMS } from '../../src/contract/limits.js';
import { getSettings } from '../../src/policy/settings-repository.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import type { BouncesDeps } from './deps.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import { parseInput } from '../http/validation.js';
import { classifyBodySchema } from './schemas.js';

/**
 * Bounces classified between turns of the event loop: a full request of the longest texts takes a
 * few hundred milliseconds of CPU, which the other requests of the process should not wait behind.
 */
const CLASSIFIED_PER_TURN = 100;

/** A sending key may call it: a mail system asks what a bounce is before it retries. */
export const classifyEndpoint: Endpoint<BouncesDeps> = {
  method: 'post',
  path: '/classify',
  access: 'sending',
  body: 'bounces',
  doc: {
    operationId: 'classifyBounces',
    tags: ['Bounces'],
    summary: 'Ask what a bounce is, and what would be done with it',
    description: `Classifies 1 to ${MAX_CLASSIFY_ITEMS.toLocaleString('en')} bounces as the workers would (the text before the status code, the code before the label) and says what the account’s bounce actions would do with each. Records nothing. A \`sending_access\` key may call it: a mail system can ask before it retries. The body may be up to ${CLASSIFY_BODY_LIMIT_MIB} MB, what ${MAX_CLASSIFY_ITEMS.toLocaleString('en')} bounces take with every field at its longest (a diagnostic of ${CLASSIFY_FIELD_LENGTHS.diagnostic.toLocaleString('en')} characters) and every character escaped; a larger one answers 413.`,
    request: {
      body: jsonRequest(classifyBodySchema, {
        example: {
          bounces: [
            {
              status: '5.7.1',
              reply_code: 550,
              diagnostic: '550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org',
              type: 'permanent',
              provider: 'ses',
            },
          ],
        },
      }),
    },
    responses: {
      200: jsonAnswer('One classification per bounce, in order.', classificationListSchema, {
        object: 'list',
        data: [
          {
            object: 'bounce_classification',
            category: 'sender_blocked',
            reason: 'blocklisted',
            rule: 'text:blocked using',
            action: 'record',
          },
        ],
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const { bounces } = parseInput(classifyBodySchema, req.body);
      const { bounce_actions: actions } = await getSettings(db, accountOf(res));
      const data: ClassificationList['data'] = [];
      for (const [index, evidence] of bounces.entries()) {
        if (index > 0 && index % CLASSIFIED_PER_TURN === 0) await nextTurn();
        const { category, reason, rule } = classifyBounce(evidence);
        data.push({ object: 'bounce_classification', category, reason, rule, action: actions[category] });
      }
      res.json({ object: 'list', data } satisfies ClassificationList);
    },
};
