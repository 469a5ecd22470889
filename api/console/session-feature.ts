import { defineFeature } from '../http/endpoints.js';
import { getSessionEndpoint, signInEndpoint, signOutEndpoint, type ConsoleSessionDeps } from './session-endpoints.js';

/** Where the console's session is mounted. */
const CONSOLE_SESSION_PATH = '/console/session';

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
