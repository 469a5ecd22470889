import { randomBytes } from 'node:crypto';

/** The change events a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['suppression.added', 'suppression.removed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

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
export function toWebhookResource(webhook: Webhook) {
  return { object: 'webhook' as const, ...toListedWebhook(webhook), signing_secret: webhook.signingSecret };
}

/** The webhook as a list shows it: without the secret (the SDK's `Webhook`). */
export function toListedWebhook(webhook: Webhook) {
  return {
    id: webhook.id,
    endpoint: webhook.endpoint,
    created_at: webhook.createdAt.toISOString(),
    status: webhook.status,
    events: webhook.events,
  };
}
