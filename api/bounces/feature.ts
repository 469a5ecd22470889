import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature, sendingAccessOf } from '../http/endpoints.js';
import { classifyEndpoint } from './classify.js';
import type { BouncesDeps } from './deps.js';
import { getReclassificationEndpoint, startReclassificationEndpoint } from './reclassifications.js';
import { summaryEndpoint } from './summary.js';

/** Where the bounce endpoints are mounted. */
export const BOUNCES_PATH = '/bounces';

/** The bounce classifier on demand, an account's bounce summary, and reclassifications of its stored records. */
export const bouncesFeature = defineFeature<BouncesDeps>(BOUNCES_PATH, [
  classifyEndpoint,
  summaryEndpoint,
  startReclassificationEndpoint,
  getReclassificationEndpoint,
]);

/** The requests of this feature a `sending_access` key may make: those declared `sending`. */
export const isSendingBounceRequest = sendingAccessOf(bouncesFeature);

/**
 * The feature's router. `guards` (authentication, rate limiting, body parsing) run first for every
 * request that reaches it; `mountPath` names the routes in metrics and logs (the console mounts the
 * feature under its own path).
 */
export function bouncesRouter(
  deps: BouncesDeps,
  guards: readonly RequestHandler[] = [],
  mountPath = BOUNCES_PATH,
): Router {
  const router = Router();
  if (guards.length > 0) router.use(...guards);
  mountFeature(router, bouncesFeature, deps, mountPath);
  return router;
}
