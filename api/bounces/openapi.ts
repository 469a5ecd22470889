import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { BOUNCE_ACTIONS, BOUNCE_CATEGORIES, BOUNCE_REASONS, type BounceReason } from '../../src/bounces/categories.js';
import { CLASSIFIER_VERSION } from '../../src/bounces/classify-bounce.js';
import { SUMMARY_MAX_DAYS, SUMMARY_TOP_DOMAINS } from '../../src/bounces/summary.js';
import {
  CLASSIFY_LIMIT,
  classifyBodySchema,
  reclassificationBodySchema,
  reclassificationParamsSchema,
  summaryQuerySchema,
} from './schemas.js';
import { authenticatedErrors, BEARER_SECURITY, BODY_ERRORS, JSON_TYPE, jsonAnswer } from '../openapi/responses.js';

const tags = ['Bounces'];
const count = (description: string) => z.int().min(0).meta({ description });
const category = z.enum(BOUNCE_CATEGORIES);
const reason = z.enum(Object.keys(BOUNCE_REASONS) as [BounceReason, ...BounceReason[]]);
const byCategory = (description: string) =>
  z
    .object(
      Object.fromEntries(BOUNCE_CATEGORIES.map((name) => [name, z.int().min(0)])) as Record<
        (typeof BOUNCE_CATEGORIES)[number],
        z.ZodInt
      >,
    )
    .strict()
    .meta({ description });
const someCategories = (description: string) => z.partialRecord(category, z.int().min(0)).meta({ description });

/** `.strict()` as in schemas.ts, so an example with an unknown field fails the document's test. */
export const classificationListSchema = z
  .object({
    object: z.literal('list'),
    data: z
      .array(
        z
          .object({
            object: z.literal('bounce_classification'),
            category,
            reason,
            rule: z.string().meta({
              description:
                'What decided: `text:<phrase>`, `status:X.1.1`, `reply:552`, `sub_type:<word>`, `echo:<sub-type>`, `label:permanent` or `none`.',
            }),
            action: z
              .enum(BOUNCE_ACTIONS)
              .meta({ description: 'What the account’s settings do with a bounce of this category.' }),
          })
          .strict(),
      )
      .meta({ description: 'One per bounce asked about, in the same order.' }),
  })
  .strict()
  .meta({ id: 'BounceClassificationList' });

export const summarySchema = z
  .object({
    object: z.literal('bounce_summary'),
    since: z.iso.datetime({ offset: true }),
    until: z.iso.datetime({ offset: true }),
    total: count('Bounces recorded in the period.'),
    by_category: byCategory(
      'Bounces by category, every category named; a bounce recorded before bounces were classified counts as `unknown`.',
    ),
    sender_blocked_share: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'The share of `sender_blocked` bounces: a sending incident when it jumps.' }),
    by_reason: z
      .record(z.string(), z.int().min(1))
      .meta({ description: 'Bounces by reason, most first; reasons with none are left out.' }),
    sender_blocked_domains: z.array(z.object({ domain: z.string(), count: z.int().min(1) }).strict()).meta({
      description: `The ${SUMMARY_TOP_DOMAINS} recipient domains with the most \`sender_blocked\` bounces: who is refusing the sender.`,
    }),
    by_day: z
      .array(z.object({ date: z.iso.date(), counts: byCategory('Bounces of the UTC day by category.') }).strict())
      .meta({
        description: 'One entry per UTC day that holds an instant of the period, days without bounces included.',
      }),
  })
  .strict()
  .meta({ id: 'BounceSummary' });

export const reclassificationSchema = z
  .object({
    object: z.literal('bounce_reclassification'),
    id: z.uuid(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    dry_run: z.boolean().meta({ description: 'Whether it only counts what it would lift.' }),
    classifier_version: z.string().meta({ description: 'The classifier the run uses.' }),
    entries_total: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'The account’s entries of origin `bounce`, once the run has started.' }),
    entries_examined: count('Entries examined so far: `entries_examined` of `entries_total` is the progress.'),
    entries_without_evidence: count(
      'Examined entries with no recorded bounce or complaint (imported, or added by hand): kept.',
    ),
    records_examined: count('Bounce and complaint records read again.'),
    lifted: count('Entries lifted (in a dry run: that a run would lift).'),
    lifted_by_category: someCategories('The lifted entries by the category of their latest bounce.'),
    records_by_category: someCategories('The examined bounce records by their category now.'),
    error: z.string().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    started_at: z.iso.datetime({ offset: true }).nullable(),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .strict()
  .meta({ id: 'BounceReclassification' });

const reclassification = {
  object: 'bounce_reclassification',
  id: '019cebab-8995-77f7-9262-77a618303564',
  status: 'completed',
  dry_run: false,
  classifier_version: CLASSIFIER_VERSION,
  entries_total: 1204,
  entries_examined: 1204,
  entries_without_evidence: 12,
  records_examined: 1873,
  lifted: 958,
  lifted_by_category: { sender_blocked: 951, delivery_failure: 7 },
  records_by_category: { invalid_address: 236, sender_blocked: 1612, delivery_failure: 25 },
  error: null,
  created_at: '2026-11-25T09:14:02.114Z',
  started_at: '2026-11-25T09:14:02.301Z',
  finished_at: '2026-11-25T09:14:04.870Z',
};

const zerosBut = (counts: Partial<Record<(typeof BOUNCE_CATEGORIES)[number], number>>) => ({
  ...Object.fromEntries(BOUNCE_CATEGORIES.map((name) => [name, 0])),
  ...counts,
});

/** The `/bounces` operations: the classifier on demand, the summary, reclassifications. */
export const bounceRoutes: RouteConfig[] = [
  {
    method: 'post',
    path: '/bounces/classify',
    operationId: 'classifyBounces',
    tags,
    summary: 'Ask what a bounce is, and what would be done with it',
    description: `Classifies 1 to ${CLASSIFY_LIMIT.toLocaleString('en')} bounces as the workers would (the text before the status code, the code before the label) and says what the account’s bounce actions would do with each. Records nothing. A \`sending_access\` key may call it: a mail system can ask before it retries.`,
    security: BEARER_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: classifyBodySchema,
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
          },
        },
      },
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
  {
    method: 'get',
    path: '/bounces/summary',
    operationId: 'getBounceSummary',
    tags,
    summary: 'The account’s bounces of a period, by category',
    description: `Counts the bounces recorded from \`since\` (default: 24 hours before \`until\`) up to \`until\` (default: now; excluded), at most ${SUMMARY_MAX_DAYS} days, by category, reason and day, with the recipient domains that refuse the sender most. A jump of \`sender_blocked\` is a sending incident (a block list, authentication, a rate limit), not bad addresses.`,
    security: BEARER_SECURITY,
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
      }),
      ...authenticatedErrors(),
    },
  },
  {
    method: 'post',
    path: '/bounces/reclassifications',
    operationId: 'reclassifyBounces',
    tags,
    summary: 'Lift the bounce entries no recorded evidence supports any more',
    description:
      'Runs the current classifier and the account’s current settings over its stored bounce and complaint records, and lifts every entry of origin `bounce` that none of them supports any more, each with a removal record (`removal_reason: "reclassified"`) and a `suppression.removed` change. Entries of origin `complaint` or `manual`, and bounce entries with no record at all (imported, added by hand), are never touched. A bounce or complaint recorded while the run works keeps its entry: a batch whose entries get new evidence before it commits is rolled back and judged again. `dry_run` defaults to `true`: it only counts what a run would lift. The run happens in the workers; follow it at `GET /bounces/reclassifications/{id}`.',
    security: BEARER_SECURITY,
    request: {
      body: {
        required: false,
        content: { [JSON_TYPE]: { schema: reclassificationBodySchema, example: { dry_run: false } } },
      },
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
  {
    method: 'get',
    path: '/bounces/reclassifications/{id}',
    operationId: 'getReclassification',
    tags,
    summary: 'Follow a reclassification',
    security: BEARER_SECURITY,
    request: { params: reclassificationParamsSchema },
    responses: {
      200: jsonAnswer('The run.', reclassificationSchema, reclassification),
      ...authenticatedErrors('not_found'),
    },
  },
];
