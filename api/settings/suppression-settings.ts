import { settingsSchema, type SettingsResource } from '../../src/contract/settings.js';
import type { Database } from '../../src/db/database.js';
import { getSettings, updateSettings } from '../../src/policy/settings-repository.js';
import { DEFAULT_SETTINGS, type SuppressionSettings } from '../../src/policy/settings.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, jsonAnswer } from '../openapi/responses.js';
import { updateSettingsBodySchema } from './schemas.js';

/** What the `/settings` endpoints talk to. */
export interface SettingsDeps {
  db: Database;
}

const tags = ['Settings'];

const defaults = { object: 'suppression_settings', ...DEFAULT_SETTINGS };
const changed = {
  object: 'suppression_settings',
  bounce_actions: { ...DEFAULT_SETTINGS.bounce_actions, unknown: 'record' },
  soft_bounce_threshold: 3,
  soft_bounce_window_days: 7,
  expire_after_days: { bounce: 30, complaint: null, manual: null },
  complaint_scope: 'message',
};

const answer = (description: string, example: unknown) => jsonAnswer(description, settingsSchema, example);

function toSettingsResource(settings: SuppressionSettings): SettingsResource {
  return { object: 'suppression_settings', ...settings };
}

export const getSettingsEndpoint: Endpoint<SettingsDeps> = {
  method: 'get',
  path: '/suppressions',
  access: 'full',
  doc: {
    operationId: 'getSuppressionSettings',
    tags,
    summary: 'Retrieve the account’s suppression settings',
    description:
      'An account that never changed them has the defaults: only `invalid_address` bounces suppress at once, `mailbox_unavailable` and `unknown` ones count toward a threshold, the others are recorded; the third counted bounce within 30 days suppresses, and entries never expire.',
    responses: {
      200: answer('The settings.', defaults),
      ...authenticatedErrors(),
    },
  },
  handler:
    ({ db }) =>
    async (_req, res) => {
      res.json(toSettingsResource(await getSettings(db, accountOf(res))));
    },
};

export const updateSettingsEndpoint: Endpoint<SettingsDeps> = {
  method: 'patch',
  path: '/suppressions',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'updateSuppressionSettings',
    tags,
    summary: 'Change some of the account’s suppression settings',
    description:
      'Any of the settings, any category of `bounce_actions` and any origin of `expire_after_days`; those left out keep their values, and `null` turns a threshold or an expiry off. Unknown keys are refused.',
    request: {
      body: jsonRequest(updateSettingsBodySchema, {
        examples: {
          threshold: {
            summary: 'Suppress after 3 soft bounces in a week',
            value: { soft_bounce_threshold: 3, soft_bounce_window_days: 7 },
          },
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
      }),
    },
    responses: {
      200: answer('The settings as they now are, every field included.', changed),
      ...authenticatedErrors('payload_too_large'),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const change = parseInput(updateSettingsBodySchema, req.body);
      res.json(toSettingsResource(await updateSettings(db, accountOf(res), change)));
    },
};
