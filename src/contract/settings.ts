import { z } from 'zod';
import { BOUNCE_ACTIONS, BOUNCE_CATEGORIES, type BounceCategory } from '../domain/bounce-categories.js';
import { COMPLAINT_SCOPES } from '../domain/scope.js';
import { EXPIRE_AFTER_DAYS, SOFT_BOUNCE_THRESHOLD, SOFT_BOUNCE_WINDOW_DAYS } from './limits.js';

const within = (bounds: { min: number; max: number }) => z.int().min(bounds.min).max(bounds.max);
const expiryDays = within(EXPIRE_AFTER_DAYS).nullable();
const action = z.enum(BOUNCE_ACTIONS);

/** The answer of `GET` and `PATCH /settings/suppressions`: every setting, those never changed at their default. */
export const settingsSchema = z
  .object({
    object: z.literal('suppression_settings'),
    bounce_actions: z
      .object(
        Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, action])) as Record<
          BounceCategory,
          typeof action
        >,
      )
      .strict()
      .meta({
        description:
          'What a bounce of each category does: `suppress` puts the address on the list at once, `count` counts toward the soft-bounce threshold, `record` keeps the record only.',
      }),
    soft_bounce_threshold: within(SOFT_BOUNCE_THRESHOLD).nullable().meta({
      description:
        'Bounces whose category’s action is `count` of an address within the window that suppress it; `null`: they never do.',
    }),
    soft_bounce_window_days: within(SOFT_BOUNCE_WINDOW_DAYS).meta({
      description: 'The window the soft bounces are counted over, in days.',
    }),
    expire_after_days: z
      .object({ bounce: expiryDays, complaint: expiryDays, manual: expiryDays })
      .strict()
      .meta({ description: 'Days after its creation that an entry of each origin is removed; `null`: never.' }),
    complaint_scope: z.enum(COMPLAINT_SCOPES).meta({
      description:
        'Where a complaint about a message sent in a named scope puts the address: `message`, in that scope only; `global`, for the whole account. A complaint about a message of no scope is always for the whole account.',
    }),
  })
  .strict()
  .meta({ id: 'SuppressionSettings' });
export type SettingsResource = z.output<typeof settingsSchema>;
