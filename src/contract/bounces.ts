import { z } from 'zod';
import { BOUNCE_ACTIONS, BOUNCE_CATEGORIES } from '../domain/bounce-categories.js';
import { bounceCategorySchema, bounceReasonSchema } from './audit-record.js';
import { outcomesByCategorySchema } from './bounce-outcomes.js';
import { count } from './fields.js';
import { SUMMARY_TOP_DOMAINS } from './limits.js';

/** The answers of the `/bounces` operations; `.strict()` as in suppression.ts. */

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
const someCategories = (description: string) =>
  z.partialRecord(bounceCategorySchema, z.int().min(0)).meta({ description });

export const classificationSchema = z
  .object({
    object: z.literal('bounce_classification'),
    category: bounceCategorySchema,
    reason: bounceReasonSchema,
    rule: z.string().meta({
      description:
        'What decided: `text:<phrase>`, `status:X.1.1`, `reply:552`, `sub_type:<word>`, `echo:<sub-type>`, `label:permanent` or `none`.',
    }),
    action: z
      .enum(BOUNCE_ACTIONS)
      .meta({ description: 'What the account’s settings do with a bounce of this category.' }),
  })
  .strict();
export type ClassificationResource = z.output<typeof classificationSchema>;

/** The answer of `POST /bounces/classify`: a list, but not a page, as every bounce asked about is answered. */
export const classificationListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(classificationSchema).meta({ description: 'One per bounce asked about, in the same order.' }),
  })
  .strict()
  .meta({ id: 'BounceClassificationList' });
export type ClassificationList = z.output<typeof classificationListSchema>;

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
    outcomes_by_category: outcomesByCategorySchema,
  })
  .strict()
  .meta({ id: 'BounceSummary' });
export type BounceSummary = z.output<typeof summarySchema>;

export const RECLASSIFICATION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const reclassificationSchema = z
  .object({
    object: z.literal('bounce_reclassification'),
    id: z.uuid(),
    status: z.enum(RECLASSIFICATION_STATUSES),
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
export type ReclassificationResource = z.output<typeof reclassificationSchema>;
