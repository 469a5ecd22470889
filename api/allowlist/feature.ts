import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature } from '../http/endpoints.js';
import { addRuleEndpoint, listRulesEndpoint, removeRuleEndpoint, type AllowlistDeps } from './rules.js';

export const ALLOWLIST_PATH = '/allowlist';

/** Addresses and domains that are never suppressed; `full_access` keys only. */
export const allowlistFeature = defineFeature<AllowlistDeps>(ALLOWLIST_PATH, [
  listRulesEndpoint,
  addRuleEndpoint,
  removeRuleEndpoint,
]);

/** The feature's router, behind `guards`; `mountPath` names the route (the console mounts it again). */
export function allowlistRouter(
  deps: AllowlistDeps,
  guards: readonly RequestHandler[],
  mountPath: string = ALLOWLIST_PATH,
): Router {
  const router = Router();
  router.use(...guards);
  mountFeature(router, allowlistFeature, deps, mountPath);
  return router;
}
