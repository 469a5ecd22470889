import { defineFeature } from '../http/endpoints.js';
import type { WebhooksDeps } from './deps.js';
import { getEventEndpoint, listAttemptsEndpoint, listEventsEndpoint } from './events.js';
import { replayEventEndpoint } from './replay.js';
import { rotateSigningSecretEndpoint } from './signing-secret.js';
import {
  createWebhookEndpoint,
  getWebhookEndpoint,
  listWebhooksEndpoint,
  removeWebhookEndpoint,
  updateWebhookEndpoint,
} from './webhooks.js';

/** Where the webhook endpoints are mounted. */
const WEBHOOKS_PATH = '/webhooks';

/**
 * The account's webhooks, and each one's event log, as Resend's API and SDK (`resend.webhooks`)
 * have them; every one needs a `full_access` key. A 404's example in the document shows the code's
 * sentence, as every 404 of the document does; the answer itself says what was not found
 * ("Webhook not found.").
 */
export const webhooksFeature = defineFeature<WebhooksDeps>(WEBHOOKS_PATH, [
  listWebhooksEndpoint,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  removeWebhookEndpoint,
  rotateSigningSecretEndpoint,
  listEventsEndpoint,
  getEventEndpoint,
  replayEventEndpoint,
  listAttemptsEndpoint,
]);
