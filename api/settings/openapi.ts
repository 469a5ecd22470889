import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { settingsSchema } from '../../src/contract/settings.js';
import { DEFAULT_SETTINGS } from '../../src/policy/settings.js';
import { updateSettingsBodySchema } from './schemas.js';
import { authenticatedErrors, BEARER_SECURITY, JSON_TYPE, jsonAnswer } from '../openapi/responses.js';

const tags = ['Settings'];

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
