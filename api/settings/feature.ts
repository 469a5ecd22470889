import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature } from '../http/endpoints.js';
import { getSettingsEndpoint, updateSettingsEndpoint, type SettingsDeps } from './suppression-settings.js';

/** Where the settings endpoints are mounted. */
export const SETTINGS_PATH = '/settings';

/** The account's suppression settings at `/settings/suppressions`; `full_access` keys only. */
export const settingsFeature = defineFeature<SettingsDeps>(SETTINGS_PATH, [
  getSettingsEndpoint,
  updateSettingsEndpoint,
]);

/**
 * The feature's router. `guards` (authentication, rate limiting, body parsing) run first for every
 * request that reaches it; `mountPath` names the route in metrics and logs (the console mounts the
 * feature under its own path).
 */
export function settingsRouter(
  deps: SettingsDeps,
  guards: readonly RequestHandler[] = [],
  mountPath: string = SETTINGS_PATH,
): Router {
  const router = Router();
  if (guards.length > 0) router.use(...guards);
  mountFeature(router, settingsFeature, deps, mountPath);
  return router;
}
