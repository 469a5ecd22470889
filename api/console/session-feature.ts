import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature } from '../http/endpoints.js';
import { sameOriginOnly } from '../http/same-origin.js';
import { noStore } from '../http/security-headers.js';
import { getSessionEndpoint, signInEndpoint, signOutEndpoint, type ConsoleSessionDeps } from './session-endpoints.js';
import { consoleSession } from './session.js';

/** Where the console's session is mounted. */
export const CONSOLE_SESSION_PATH = '/console/session';

/**
 * The console's session (docs/console.md): signing in, reading it, signing out. The console's
 * pages reach the other features under `/console/api/...`, the same operations as the API's with
 * the session cookie and `X-CSRF-Token` in place of a key; they are documented once, under theirs.
 */
export const consoleSessionFeature = defineFeature<ConsoleSessionDeps>(CONSOLE_SESSION_PATH, [
  signInEndpoint,
  getSessionEndpoint,
  signOutEndpoint,
]);

export interface ConsoleSessionRouterOptions extends Omit<ConsoleSessionDeps, 'signedIn'> {
  /** Per account, once the session is known. */
  rateLimited: readonly RequestHandler[];
}

/** The feature's router: never cached, and refused to another origin's pages. */
export function consoleSessionRouter(options: ConsoleSessionRouterOptions): Router {
  const { rateLimited, ...deps } = options;
  const router = Router();
  router.use(noStore, sameOriginOnly);
  const signedIn = [consoleSession({ db: deps.db, failureLimit: deps.failureLimit }), ...rateLimited];
  mountFeature(router, consoleSessionFeature, { ...deps, signedIn });
  return router;
}
