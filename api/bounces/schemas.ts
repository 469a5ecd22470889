import { z } from 'zod';
import { uuidParameter } from '../../src/contract/cursor-query.js';
import { MAX_CLASSIFY_ITEMS, SUMMARY_MAX_DAYS } from '../../src/contract/limits.js';

// A diagnostic is cut to the length the audit trail keeps, as the event schema does, not refused.
const text = (max: number, description: string) =>
  z
    .string({ error: 'must be a string.' })
    .max(max, { error: `must be at most ${max} characters.` })
    .nullish()
    .meta({ description });

const bounceEvidence = z
  .object(
    {
      status: text(32, 'The enhanced status code, e.g. `5.1.1`.'),
      reply_code: z
        .union([z.string().max(16, { error: 'must be at most 16 characters.' }), z.int()], {
          error: 'must be a string or a whole number.',
        })
        .nullish()
        .meta({ description: 'The SMTP reply code, e.g. `550`.' }),
      diagnostic: z
        .string({ error: 'must be a string.' })
        .transform((value) => value.slice(0, 2000))
        .nullish()
        .meta({ description: 'The remote server’s text; cut to 2,000 characters.' }),
      type: text(100, 'The provider’s label: `permanent`, `transient`, `undetermined`, or its own word.'),
      sub_type: text(
        100,
        'The provider’s finer word: SES `bounceSubType`, SendGrid `bounce_classification`, Postmark `Type`, Mailgun `reason`.',
      ),
      provider: text(64, '`ses`, `sendgrid`, `postmark`, `mailgun`, `resend`, or a name of your own.'),
      remote_mta: text(255, 'The receiving server, where known.'),
    },
    { error: 'must be an object.' },
  )
  .meta({ description: 'What a bounce carries; every field may be left out.' });

export const classifyBodySchema = z.object(
  {
    bounces: z
      .array(bounceEvidence, { error: 'must be a list of bounces.' })
      .min(1, { error: 'must hold at least one bounce.' })
      .max(MAX_CLASSIFY_ITEMS, { error: `must hold at most ${MAX_CLASSIFY_ITEMS.toLocaleString('en')} bounces.` }),
  },
  { error: 'The request body must be a JSON object with `bounces`.' },
);

const isoTime = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `must be an ISO 8601 timestamp, e.g. 2026-11-24T00:00:00Z.` })
    .meta({ description: name });

export const summaryQuerySchema = z
  .object({
    since: isoTime('The start of the period (default: 24 hours before `until`).').optional(),
    until: isoTime('The end of the period (default: now).').optional(),
  })
  .transform((query, context) => {
    const until = query.until ? new Date(query.until) : new Date();
    const since = query.since ? new Date(query.since) : new Date(until.getTime() - 24 * 60 * 60 * 1000);
    if (since >= until) {
      context.addIssue({ code: 'custom', path: ['since'], message: 'must be before `until`.' });
      return z.NEVER;
    }
    if (until.getTime() - since.getTime() > SUMMARY_MAX_DAYS * 24 * 60 * 60 * 1000) {
      context.addIssue({
        code: 'custom',
        path: ['since'],
        message: `must be at most ${SUMMARY_MAX_DAYS} days before \`until\`.`,
      });
      return z.NEVER;
    }
    return { since, until };
  });

export const reclassificationBodySchema = z
  .object(
    {
      dry_run: z
        .boolean({ error: 'must be true or false.' })
        .default(true)
        .meta({ description: 'Only count what a run would lift (the default); `false` lifts it.' }),
    },
    { error: 'The request body must be a JSON object.' },
  )
  .strict();

export const reclassificationParamsSchema = z.object({
  id: uuidParameter('a reclassification id'),
});
