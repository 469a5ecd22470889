import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature, sendingAccessOf } from '../http/endpoints.js';
import { createLinksEndpoint, rotateSecretEndpoint, type UnsubscribeLinksDeps } from './links.js';
import { unsubscribeEndpoint, unsubscribePageEndpoint, type UnsubscribePageDeps } from './page.js';
import { UNSUBSCRIBE_LINKS_PATH, UNSUBSCRIBE_PATH } from './paths.js';

export { UNSUBSCRIBE_LINKS_PATH, UNSUBSCRIBE_PATH };

/** The sender's side: links for the messages it sends, and the secret that seals them. */
export const unsubscribeLinksFeature = defineFeature<UnsubscribeLinksDeps>(UNSUBSCRIBE_LINKS_PATH, [
  createLinksEndpoint,
  rotateSecretEndpoint,
]);

/** The recipient's side: the link's page and its one-click POST, with no key. */
export const unsubscribePageFeature = defineFeature<UnsubscribePageDeps>(UNSUBSCRIBE_PATH, [
  unsubscribePageEndpoint,
  unsubscribeEndpoint,
]);

export const isSendingLinksRequest = sendingAccessOf(unsubscribeLinksFeature);

export function unsubscribeLinksRouter(deps: UnsubscribeLinksDeps, guards: readonly RequestHandler[]): Router {
  const router = Router();
  router.use(...guards);
  mountFeature(router, unsubscribeLinksFeature, deps);
  return router;
}

export function unsubscribePageRouter(deps: UnsubscribePageDeps): Router {
  const router = Router();
  mountFeature(router, unsubscribePageFeature, deps);
  return router;
}
