import { z } from 'zod';
import { cursorQuery, oneCursorAtATime, uuidParameter } from '../../src/contract/cursor-query.js';
import { CLASSIFY_FIELD_LENGTHS as LENGTHS, MAX_CLASSIFY_ITEMS, SUMMARY_MAX_DAYS } from '../../src/contract/limits.js';

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
      status: text(LENGTHS.status, 'The enhanced status code, e.g. `5.1.1`.'),
      reply_code: z
        .union(
          [z.string().max(LENGTHS.reply_code, { error: `must be at most ${LENGTHS.reply_code} characters.` }), z.int()],
          {
            error: 'must be a string or a whole number.',
          },
        )
        .nullish()
        .meta({ description: 'The SMTP reply code, e.g. `550`.' }),
      diagnostic: z
        .string({ error: 'must be a string.' })
        .transform((value) => value.slice(0, LENGTHS.diagnostic))
        .nullish()
        .meta({
          description: `The remote server’s text; cut to ${LENGTHS.diagnostic.toLocaleString('en')} characters.`,
        }),
      type: text(LENGTHS.type, 'The provider’s label: `permanent`, `transient`, `undetermined`, or its own word.'),
      sub_type: text(
        LENGTHS.sub_type,
        'The provider’s finer word: SES `bounceSubType`, SendGrid `bounce_classification`, Postmark `Type`, Mailgun `reason`.',
      ),
      provider: text(LENGTHS.provider, '`ses`, `sendgrid`, `postmark`, `mailgun`, `resend`, or a name of your own.'),
      remote_mta: text(LENGTHS.remote_mta, 'The receiving server, where known.'),
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

const EXAMPLE_ENTRY_ID = '01a21088-9a00-7000-8000-00000000c0de';

export const reclassificationEntriesQuerySchema = oneCursorAtATime(
  cursorQuery(uuidParameter('an entry id'), {
    after: { description: 'An entry id: the page of entries just older than it.', example: EXAMPLE_ENTRY_ID },
    before: { description: 'An entry id: the page of entries just newer than it.', example: EXAMPLE_ENTRY_ID },
  }),
);
