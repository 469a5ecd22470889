import { z } from 'zod';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../domain/bounce-categories.js';
import type { AuditOutcome } from './audit-record.js';

/** What a bounce did when it was recorded: the outcomes of the audit trail but a removal's. */
export const BOUNCE_OUTCOMES = [
  'suppressed',
  'suppressed_soft_bounce_threshold',
  'already_suppressed',
  'not_suppressed',
  'allowlisted',
] as const satisfies readonly AuditOutcome[];
export type BounceOutcome = (typeof BOUNCE_OUTCOMES)[number];

const outcomeCounts = z
  .object(
    Object.fromEntries(BOUNCE_OUTCOMES.map((outcome) => [outcome, z.int().min(0)])) as Record<BounceOutcome, z.ZodInt>,
  )
  .strict();

/** Per category, every outcome named: what the bounces of a period did, as they were recorded. */
export const outcomesByCategorySchema = z
  .object(
    Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, outcomeCounts])) as Record<
      BounceCategory,
      typeof outcomeCounts
    >,
  )
  .strict()
  .meta({
    description:
      'The bounces of each category by what they did when they were recorded, under the settings of their day: `suppressed` put the address on the list at once, `suppressed_soft_bounce_threshold` put it there as the bounce that reached the soft-bounce threshold, `already_suppressed` found it on the list, `not_suppressed` left it off (an action of `record`, or `count` below the threshold), `allowlisted` left it off because the allowlist covers it. Every category and outcome is named.',
  });
export type OutcomesByCategory = z.output<typeof outcomesByCategorySchema>;
