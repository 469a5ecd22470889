import { z } from 'zod';
import { emailProblem, normalizeEmail } from '../domain/email.js';
import { UUID_PATTERN } from '../domain/ids.js';
import { SCOPE_PATTERN, SCOPE_RULE } from '../domain/scope.js';
import { isStorableText, storableText, UNSTORABLE_TEXT_RULE } from '../domain/text.js';

export const EVENT_TYPES = ['bounce', 'complaint', 'reactivation'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const BOUNCE_TYPES = ['permanent', 'transient', 'undetermined'] as const;
export type BounceType = (typeof BOUNCE_TYPES)[number];

export const REACTIVATION_FROM_FEEDS_ONLY =
  'is required when type is reactivation: only the provider feeds of the service (POST /feeds/{id}) reactivate addresses';

const uuid = z
  .string()
  .regex(UUID_PATTERN, { error: 'must be a UUID' })
  .transform((value) => value.toLowerCase());

// Free-text details from mail servers are kept for the audit trail: evidence no one can send again,
// so it is cut to a sane size and stripped of what PostgreSQL cannot store, never refused.
const detail = (max: number) =>
  z
    .string()
    .transform((value) => storableText(value.slice(0, max)))
    .optional();

const email = z
  .string()
  .transform(normalizeEmail)
  .superRefine((value, context) => {
    const problem = emailProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

/**
 * A bounce or complaint as the upstream mail system publishes it: the data of a job named after
 * its `type` on the `suppression-events` queue. Unknown extra fields are dropped.
 */
export const suppressionEventSchema = z
  .object(
    {
      account_id: uuid,
      // An identifier, not evidence: stripping could make two events one, so it is refused.
      event_id: z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(255, { error: 'must be at most 255 characters' })
        .refine(isStorableText, { error: UNSTORABLE_TEXT_RULE }),
      type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }),
      email,
      source_id: uuid,
      occurred_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' }),
      bounce: z
        .object({
          type: z.enum(BOUNCE_TYPES, { error: `must be one of ${BOUNCE_TYPES.join(', ')}` }),
          sub_type: detail(100),
          status: detail(32),
          /** The SMTP reply code (`550`), where the provider gives it apart from the text. */
          reply_code: z
            .union([z.string(), z.number()])
            .transform((value) => storableText(String(value).slice(0, 16)))
            .optional(),
          diagnostic: detail(2000),
          /** Who reported the bounce (`ses`, `postmark`, a mail system's name): how its sub-type is read. */
          provider: detail(64),
          /** The receiving server, where known. */
          remote_mta: detail(255),
        })
        .optional(),
      complaint: z.object({ feedback_type: detail(64) }).optional(),
      /**
       * For a reactivation: the provider withdrawing its own verdict (`postmark`). It lifts the entries
       * whose only evidence is that provider's feed's events (their ids start with `<provider>:`).
       */
      reactivation: z
        .object({
          provider: z.string().regex(/^[a-z0-9_-]{1,64}$/, { error: 'must be a provider name, such as postmark' }),
        })
        .optional(),
      /** The sending provider's id for the message, kept in the audit trail (set by provider feeds). */
      provider_message_id: detail(998),
      /** The provider feed the event came through, set by the feed itself: its maker in the history. */
      feed_id: z
        .string()
        .regex(/^feed_[A-Za-z0-9_-]{32}$/, { error: 'must be a feed id' })
        .optional(),
      /**
       * The scope the message was sent in (a stream, a newsletter), when it had one: where a complaint
       * about it puts the address, under the account's `complaint_scope`.
       */
      scope: z
        .string({ error: 'must be a string' })
        .regex(SCOPE_PATTERN, { error: `must be a scope: ${SCOPE_RULE}` })
        .nullable()
        .optional(),
    },
    { error: 'the event must be a JSON object' },
  )
  .refine((event) => event.type !== 'bounce' || event.bounce !== undefined, {
    error: 'is required when type is bounce',
    path: ['bounce'],
    // Checked even when other fields are wrong, so one report names every problem.
    when: ({ value }) => typeof value === 'object' && value !== null,
  })
  .refine((event) => event.type !== 'reactivation' || event.reactivation !== undefined, {
    error: 'is required when type is reactivation',
    path: ['reactivation'],
    when: ({ value }) => typeof value === 'object' && value !== null,
  })
  // A reactivation lifts entries that `DELETE` would protect (a complaint's): only a provider feed
  // of the service, whose signature was verified, may send one, and it names itself as the maker.
  .refine((event) => event.type !== 'reactivation' || event.feed_id !== undefined, {
    error: REACTIVATION_FROM_FEEDS_ONLY,
    path: ['feed_id'],
    when: ({ value }) => typeof value === 'object' && value !== null,
  });

/** What a producer hands in (before normalisation). */
export type SuppressionEventInput = z.input<typeof suppressionEventSchema>;
/** A validated event, email normalised. */
export type SuppressionEvent = z.output<typeof suppressionEventSchema>;

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')} ${issue.message}` : issue.message))
    .join('; ');
}

const parseOptions: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined),
};

/** A field of an event that is wrong: its path (`bounce.type`, or empty for the event itself) and why. */
export interface EventProblem {
  path: string;
  message: string;
}

/** The validated event, or every problem of it, each with its field's path. */
export function safeParseSuppressionEvent(
  data: unknown,
): { success: true; event: SuppressionEvent } | { success: false; problems: EventProblem[] } {
  const result = suppressionEventSchema.safeParse(data);
  if (result.success) return { success: true, event: result.data };
  const worded = suppressionEventSchema.safeParse(data, parseOptions);
  const issues = (worded.error ?? result.error).issues;
  return { success: false, problems: issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
}

/** The validated event, or an InvalidEventError that names every field that is wrong. */
export function parseSuppressionEvent(data: unknown): SuppressionEvent {
  // Without parse options zod takes its compiled fast path (about twice as fast); the options only
  // word the messages, so they are used when there is something to report.
  const result = suppressionEventSchema.safeParse(data);
  if (result.success) return result.data;
  const worded = suppressionEventSchema.safeParse(data, parseOptions);
  throw new InvalidEventError(`invalid event: ${describeIssues(worded.error ?? result.error)}`);
}
