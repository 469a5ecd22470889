import { Router, type RequestHandler } from 'express';
import type { SettingsResource } from '../../src/contract/settings.js';
import type { Database } from '../../src/db/database.js';
import { getSettings, updateSettings } from '../../src/policy/settings-repository.js';
import type { SuppressionSettings } from '../../src/policy/settings.js';
import { accountOf } from '../http/authenticate.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import { updateSettingsBodySchema } from './schemas.js';
import { parseInput } from '../http/validation.js';

/** Where `settingsRouter` is mounted. */
export const SETTINGS_PATH = '/settings';

function toResource(settings: SuppressionSettings): SettingsResource {
  return { object: 'suppression_settings', ...settings };
}

/**
 * The account's suppression settings at `/settings/suppressions`. `guards` (authentication, rate
 * limiting, body parsing) run first for every request that reaches the router; `mountPath` names
 * the route in metrics and logs (the console mounts it too).
 */
export function settingsRouter(
  db: Database,
  guards: readonly RequestHandler[] = [],
  mountPath: string = SETTINGS_PATH,
): Router {
  const router = Router();
  if (guards.length > 0) router.use(...guards);

  namedRoute(router, mountPath, '/suppressions')
    .get(async (_req, res) => {
      res.json(toResource(await getSettings(db, accountOf(res))));
    })
    .patch(async (req, res) => {
      const change = parseInput(updateSettingsBodySchema, req.body);
      res.json(toResource(await updateSettings(db, accountOf(res), change)));
    })
    .all(methodNotAllowed('GET', 'PATCH'));

  return router;
}
