import { defineFeature } from '../http/endpoints.js';
import { addRuleEndpoint, listRulesEndpoint, removeRuleEndpoint, type AllowlistDeps } from './rules.js';

const ALLOWLIST_PATH = '/allowlist';

/** Addresses and domains that are never suppressed; `full_access` keys only. */
export const allowlistFeature = defineFeature<AllowlistDeps>(ALLOWLIST_PATH, [
  listRulesEndpoint,
  addRuleEndpoint,
  removeRuleEndpoint,
]);
