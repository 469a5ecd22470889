import { z } from 'zod';
import { BOUNCE_ACTIONS, BOUNCE_CATEGORIES, DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { GIVEN_ORIGINS as ORIGINS } from '../../src/domain/origins.js';
import { COMPLAINT_SCOPES } from '../../src/domain/scope.js';
import { EXPIRE_AFTER_DAYS, SOFT_BOUNCE_THRESHOLD, SOFT_BOUNCE_WINDOW_DAYS } from '../../src/contract/limits.js';

// Messages are predicates: parseInput puts the field's name in front of them. Every way a value can
// be wrong (a string, a fraction, out of range) gets the same sentence, which states the whole rule.

const SETTINGS = [
  'bounce_actions',
  'soft_bounce_threshold',
  'soft_bounce_window_days',
  'expire_after_days',
  'complaint_scope',
] as const;

/** Unknown keys are echoed back, but only so much of them: a body may hold any number, of any length. */
const SHOWN_KEYS = 3;
const SHOWN_KEY_LENGTH = 40;

const quoted = (names: readonly string[]) => names.map((name) => `\`${name}\``);

function listed(names: readonly string[], conjunction: 'and' | 'or'): string {
  const all = quoted(names);
  return all.length < 2 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} ${conjunction} ${all.at(-1)}`;
}

/** "key `a`", or "keys `a`, `b`, `c` and 2 more": the unknown keys, for a message. */
function unknownKeys(keys: readonly string[]): string {
  const shown = keys
    .slice(0, SHOWN_KEYS)
    .map((key) => (key.length > SHOWN_KEY_LENGTH ? `${key.slice(0, SHOWN_KEY_LENGTH)}…` : key));
  const more = keys.length > SHOWN_KEYS ? ` and ${keys.length - SHOWN_KEYS} more` : '';
  return `${keys.length === 1 ? 'key' : 'keys'} ${quoted(shown).join(', ')}${more}`;
}

/** The error of a strict object: its unknown keys when it has some, otherwise `notAnObject`. */
const strictErrors = (notAnObject: string, unknown: (keys: string) => string) => ({
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys' ? unknown(unknownKeys(issue.keys)) : notAnObject,
});

/** A whole number within `bounds`; a JSON number only, so `"5"` is refused as `2.5` is. */
function wholeNumber(bounds: { min: number; max: number }, rule: string) {
  return z
    .number({ error: rule })
    .int({ error: rule })
    .min(bounds.min, { error: rule })
    .max(bounds.max, { error: rule });
}

const rangeOf = (bounds: { min: number; max: number }) => `from ${bounds.min} to ${bounds.max}`;

const threshold = wholeNumber(
  SOFT_BOUNCE_THRESHOLD,
  `must be null or a whole number ${rangeOf(SOFT_BOUNCE_THRESHOLD)}.`,
).nullable();

const windowDays = wholeNumber(SOFT_BOUNCE_WINDOW_DAYS, `must be a whole number ${rangeOf(SOFT_BOUNCE_WINDOW_DAYS)}.`);

const expiryDays = wholeNumber(EXPIRE_AFTER_DAYS, `must be null or a whole number ${rangeOf(EXPIRE_AFTER_DAYS)}.`)
  .nullable()
  .meta({ description: 'Days after its creation that an entry of this origin is removed; `null`: never.' });

const expireAfterDays = z
  .strictObject(
    { bounce: expiryDays.optional(), complaint: expiryDays.optional(), manual: expiryDays.optional() },
    strictErrors(
      `must be an object with any of ${listed(ORIGINS, 'and')}.`,
      (keys) => `has the unknown ${keys}; its keys are ${listed(ORIGINS, 'and')}.`,
    ),
  )
  // An empty change would answer 200 having changed nothing, which hides a client's mistake.
  .refine((expiry) => Object.keys(expiry).length > 0, {
    error: `must name at least one of ${listed(ORIGINS, 'or')}.`,
  })
  .meta({ description: 'Per origin; an origin left out keeps its value.', example: { bounce: 30 }, minProperties: 1 });

const bounceAction = z
  .enum(BOUNCE_ACTIONS, { error: `must be one of ${listed(BOUNCE_ACTIONS, 'or')}.` })
  .meta({ description: 'What a bounce of this category does.' });

const bounceActions = z
  .strictObject(
    Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, bounceAction.optional()])) as Record<
      (typeof BOUNCE_CATEGORIES)[number],
      z.ZodOptional<typeof bounceAction>
    >,
    strictErrors(
      `must be an object whose keys are bounce categories (${listed(BOUNCE_CATEGORIES, 'and')}).`,
      (keys) => `has the unknown ${keys}; the categories are ${listed(BOUNCE_CATEGORIES, 'and')}.`,
    ),
  )
  .refine((actions) => Object.keys(actions).length > 0, {
    error: `must name at least one of ${listed(BOUNCE_CATEGORIES, 'or')}.`,
  })
  .meta({
    description:
      'Per bounce category: `suppress` (put the address on the list at once), `count` (count toward the soft-bounce threshold) or `record` (keep the record only); a category left out keeps its action. Defaults: ' +
      BOUNCE_CATEGORIES.map((category) => `${category} ${DEFAULT_BOUNCE_ACTIONS[category]}`).join(', ') +
      '.',
    example: { sender_blocked: 'record', mailbox_unavailable: 'count' },
    minProperties: 1,
  });

/** The body of `PATCH /settings/suppressions`: any of the settings; those left out keep their values. */
export const updateSettingsBodySchema = z
  .strictObject(
    {
      bounce_actions: bounceActions.optional(),
      soft_bounce_threshold: threshold.optional().meta({
        description: `Bounces whose category's action is \`count\` of an address within the window that suppress it, ${rangeOf(SOFT_BOUNCE_THRESHOLD)}; \`null\`: never.`,
        example: 3,
      }),
      soft_bounce_window_days: windowDays.optional().meta({
        description: `The window the soft bounces are counted over, in days, ${rangeOf(SOFT_BOUNCE_WINDOW_DAYS)}.`,
        example: 7,
      }),
      expire_after_days: expireAfterDays.optional(),
      complaint_scope: z
        .enum(COMPLAINT_SCOPES, { error: `must be one of ${listed(COMPLAINT_SCOPES, 'or')}.` })
        .optional()
        .meta({
          description:
            'Where a complaint about a message sent in a named scope puts the address: `message` (that scope) or `global` (the whole account).',
          example: 'global',
        }),
    },
    strictErrors(
      'The request body must be a JSON object.',
      (keys) => `Unknown ${keys} in the request body; the settings are ${listed(SETTINGS, 'and')}.`,
    ),
  )
  .refine((body) => Object.keys(body).length > 0, {
    error: `Provide at least one of ${listed(SETTINGS, 'or')}.`,
  })
  .meta({ minProperties: 1 });
