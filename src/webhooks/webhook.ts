import { randomBytes } from 'node:crypto';
import type { ListedWebhook, WebhookEventType, WebhookResource, WebhookStatus } from '../contract/webhook.js';

export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATUSES,
  type WebhookEventType,
  type WebhookStatus,
} from '../contract/webhook.js';

export interface Webhook {
  id: string;
  accountId: string;
  endpoint: string;
  events: WebhookEventType[];
  status: WebhookStatus;
  signingSecret: string;
  createdAt: Date;
}

/** `whsec_` and 32 random bytes in base64: the Svix form, which Resend's SDK and `svix` verify with. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The webhook as `GET /webhooks/{id}` shows it, secret included (the SDK's `GetWebhookResponseSuccess`). */
export function toWebhookResource(webhook: Webhook): WebhookResource {
  return { object: 'webhook', ...toListedWebhook(webhook), signing_secret: webhook.signingSecret };
}

/** The webhook as a list shows it: without the secret (the SDK's `Webhook`). */
export function toListedWebhook(webhook: Webhook): ListedWebhook {
  return {
    id: webhook.id,
    endpoint: webhook.endpoint,
    created_at: webhook.createdAt.toISOString(),
    status: webhook.status,
    events: webhook.events,
  };
}
