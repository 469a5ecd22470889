import { Router, type RequestHandler } from 'express';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { defineFeature, mountFeature, sendingAccessOf } from '../http/endpoints.js';
import { batchAddEndpoint, batchRemoveEndpoint } from './batch.js';
import { checkEndpoint } from './check.js';
import type { SuppressionsDeps } from './deps.js';
import {
  addSuppressionEndpoint,
  getSuppressionEndpoint,
  listSuppressionsEndpoint,
  removeSuppressionEndpoint,
} from './entries.js';
import { exportEndpoint } from './export.js';
import { historyEndpoint } from './history.js';
import { getImportEndpoint, importEndpoint } from './imports.js';

/** Where the suppressions endpoints are mounted. */
export const SUPPRESSIONS_PATH = '/suppressions';

/**
 * The list and its entries, an address's history, the send-time check, batches, export and
 * imports, in the order the reference lists them (the router matches literal paths first).
 */
export const suppressionsFeature = defineFeature<SuppressionsDeps>(SUPPRESSIONS_PATH, [
  listSuppressionsEndpoint,
  exportEndpoint,
  addSuppressionEndpoint,
  getSuppressionEndpoint,
  historyEndpoint,
  removeSuppressionEndpoint,
  checkEndpoint,
  batchAddEndpoint,
  batchRemoveEndpoint,
  importEndpoint,
  getImportEndpoint,
]);

/** The requests of this feature a `sending_access` key may make: those declared `sending` (the check). */
export const isSendingSuppressionRequest = sendingAccessOf(suppressionsFeature);

/**
 * The feature's router. `guards` (authentication, rate limiting, body parsing) run first for every
 * request that reaches it: inside it, rather than as layers of their own on the app's mount path,
 * they cost no path trimming per request. `mountPath` names its routes in metrics and logs (the
 * console mounts the feature under its own path).
 */
export function suppressionsRouter(
  deps: Omit<SuppressionsDeps, 'lookups'>,
  guards: readonly RequestHandler[] = [],
  mountPath: string = SUPPRESSIONS_PATH,
): Router {
  const router = Router();
  if (guards.length > 0) router.use(...guards);
  mountFeature(
    router,
    suppressionsFeature,
    { ...deps, lookups: createSuppressionLookups(deps.db, deps.reads) },
    mountPath,
  );
  return router;
}
