import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { BOUNCE_ACTIONS, BOUNCE_CATEGORIES, type BounceCategory } from '../../src/bounces/categories.js';
import {
  DEFAULT_SETTINGS,
  EXPIRE_AFTER_DAYS,
  SOFT_BOUNCE_THRESHOLD,
  SOFT_BOUNCE_WINDOW_DAYS,
} from '../../src/policy/settings.js';
import { updateSettingsBodySchema } from './schemas.js';
import { authenticatedErrors, BEARER_SECURITY, JSON_TYPE, jsonAnswer } from '../openapi/responses.js';

const tags = ['Settings'];

const within = (bounds: { min: number; max: number }) => z.int().min(bounds.min).max(bounds.max);
const expiryDays = within(EXPIRE_AFTER_DAYS).nullable();
const action = z.enum(BOUNCE_ACTIONS);

/** The answer of both operations; `.strict()` as in schemas.ts, so an example with an unknown field fails. */
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
  })
  .strict()
  .meta({ id: 'SuppressionSettings' });

const defaults = { object: 'suppression_settings', ...DEFAULT_SETTINGS };
const changed = {
  object: 'suppression_settings',
  bounce_actions: { ...DEFAULT_SETTINGS.bounce_actions, unknown: 'record' },
  soft_bounce_threshold: 3,
  soft_bounce_window_days: 7,
  expire_after_days: { bounce: 30, complaint: null, manual: null },
};

const answer = (description: string, example: unknown) => jsonAnswer(description, settingsSchema, example);

/** `GET` and `PATCH /settings/suppressions`: the account's suppression policy. */
export const settingsRoutes: RouteConfig[] = [
  {
    method: 'get',
    path: '/settings/suppressions',
    operationId: 'getSuppressionSettings',
    tags,
    summary: 'Retrieve the account’s suppression settings',
    description:
      'An account that never changed them has the defaults: only `invalid_address` bounces suppress, `mailbox_unavailable` and `unknown` ones count toward a threshold, the others are recorded; no soft-bounce threshold, a 7-day window, and entries that never expire.',
    security: BEARER_SECURITY,
    responses: {
      200: answer('The settings.', defaults),
      ...authenticatedErrors(),
    },
  },
  {
    method: 'patch',
    path: '/settings/suppressions',
    operationId: 'updateSuppressionSettings',
    tags,
    summary: 'Change some of the account’s suppression settings',
    description:
      'Any of the settings, any category of `bounce_actions` and any origin of `expire_after_days`; those left out keep their values, and `null` turns a threshold or an expiry off. Unknown keys are refused.',
    security: BEARER_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: updateSettingsBodySchema,
            examples: {
              threshold: { summary: 'Suppress after 3 soft bounces in a week', value: { soft_bounce_threshold: 3 } },
              actions: {
                summary: 'Unclassified bounces are recorded only',
                value: { bounce_actions: { unknown: 'record' } },
              },
              expiry: { summary: 'Bounces leave the list after 30 days', value: { expire_after_days: { bounce: 30 } } },
              off: {
                summary: 'No threshold, and bounces never expire',
                value: { soft_bounce_threshold: null, expire_after_days: { bounce: null } },
              },
            },
          },
        },
      },
    },
    responses: {
      200: answer('The settings as they now are, every field included.', changed),
      ...authenticatedErrors('payload_too_large'),
    },
  },
];
