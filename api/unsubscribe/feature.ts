import { defineFeature } from '../http/endpoints.js';
import { createLinksEndpoint, rotateSecretEndpoint, type UnsubscribeLinksDeps } from './links.js';
import { unsubscribeEndpoint, unsubscribePageEndpoint, type UnsubscribePageDeps } from './page.js';
import { UNSUBSCRIBE_LINKS_PATH, UNSUBSCRIBE_PATH } from './paths.js';

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
