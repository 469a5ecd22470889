import { bounceSummary } from '../../src/bounces/summary.js';
import { summarySchema, type BounceSummary } from '../../src/contract/bounces.js';
import { BOUNCE_OUTCOMES, type BounceOutcome } from '../../src/contract/bounce-outcomes.js';
import { BOUNCE_CATEGORIES } from '../../src/domain/bounce-categories.js';
import { SUMMARY_MAX_DAYS } from '../../src/contract/limits.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import type { BouncesDeps } from './deps.js';
import { parseInput } from '../http/validation.js';
import { authenticatedErrors, jsonAnswer } from '../openapi/responses.js';
import { zerosBut } from './examples.js';
import { summaryQuerySchema } from './schemas.js';

/** The example's outcomes: every category and outcome named, zero but for those given. */
const outcomesBut = (
  given: Partial<Record<(typeof BOUNCE_CATEGORIES)[number], Partial<Record<BounceOutcome, number>>>>,
) =>
  Object.fromEntries(
    BOUNCE_CATEGORIES.map((category) => [
      category,
      { ...Object.fromEntries(BOUNCE_OUTCOMES.map((outcome) => [outcome, 0])), ...given[category] },
    ]),
  );

export const summaryEndpoint: Endpoint<BouncesDeps> = {
  method: 'get',
  path: '/summary',
  access: 'full',
  doc: {
    operationId: 'getBounceSummary',
    tags: ['Bounces'],
    summary: 'The account’s bounces of a period, by category',
    description: `Counts the bounces recorded from \`since\` (default: 24 hours before \`until\`) up to \`until\` (default: now; excluded), at most ${SUMMARY_MAX_DAYS} days, by category, reason and day, with the recipient domains that refuse the sender most, and what the bounces of each category did when they were recorded (\`outcomes_by_category\`: put the address on the list, found it there, or left it off). A jump of \`sender_blocked\` is a sending incident (a block list, authentication, a rate limit), not bad addresses.`,
    request: { query: summaryQuerySchema },
    responses: {
      200: jsonAnswer('The summary.', summarySchema, {
        object: 'bounce_summary',
        since: '2026-11-24T09:00:00.000Z',
        until: '2026-11-25T09:00:00.000Z',
        total: 1240,
        by_category: zerosBut({
          invalid_address: 210,
          mailbox_unavailable: 40,
          sender_blocked: 980,
          delivery_failure: 10,
        }),
        sender_blocked_share: 0.7903,
        by_reason: {
          blocklisted: 962,
          user_unknown: 208,
          mailbox_full: 40,
          bad_reputation: 18,
          network_error: 10,
          domain_unknown: 2,
        },
        sender_blocked_domains: [
          { domain: 'outlook.com', count: 731 },
          { domain: 'hotmail.com', count: 240 },
        ],
        by_day: [
          {
            date: '2026-11-24',
            counts: zerosBut({
              invalid_address: 120,
              mailbox_unavailable: 21,
              sender_blocked: 12,
              delivery_failure: 4,
            }),
          },
          {
            date: '2026-11-25',
            counts: zerosBut({
              invalid_address: 90,
              mailbox_unavailable: 19,
              sender_blocked: 968,
              delivery_failure: 6,
            }),
          },
        ],
        outcomes_by_category: outcomesBut({
          invalid_address: { suppressed: 180, already_suppressed: 28, allowlisted: 2 },
          mailbox_unavailable: { not_suppressed: 36, suppressed_soft_bounce_threshold: 4 },
          sender_blocked: { not_suppressed: 975, already_suppressed: 5 },
          delivery_failure: { not_suppressed: 10 },
        }),
      }),
      ...authenticatedErrors(),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const { since, until } = parseInput(summaryQuerySchema, req.query);
      res.json((await bounceSummary(db, accountOf(res), since, until)) satisfies BounceSummary);
    },
};
