import { z } from 'zod';
import { timestamp } from './fields.js';
import { pageOf } from './paging.js';

/** The change events a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['suppression.added', 'suppression.removed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The shapes of the `/webhooks` answers, as Resend's SDK types them; `.strict()` as in suppression.ts. */

export const webhookId = z
  .uuid()
  .meta({ description: 'Webhook id (UUIDv7, time-ordered).', example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7' });

const signingSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+=*$/)
  .meta({
    description:
      'What deliveries are signed with (Standard Webhooks, as Resend and Svix sign): `whsec_` and 32 random bytes in base64.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Kd5eOqx0Aw=',
  });

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

const listedWebhookFields = {
  id: webhookId,
  endpoint: z.string().meta({ example: 'https://hooks.example.com/suppressions' }),
  created_at: timestamp,
  status: z.enum(WEBHOOK_STATUSES),
  events: z.array(webhookEventTypeSchema),
};

/** A webhook as a list shows it: without its secret. */
export const listedWebhookSchema = z.object(listedWebhookFields).strict().meta({ id: 'ListedWebhook' });
export type ListedWebhook = z.output<typeof listedWebhookSchema>;

/** A webhook as `GET /webhooks/{webhook_id}` shows it, with its secret. */
export const webhookSchema = z
  .object({ object: z.literal('webhook'), ...listedWebhookFields, signing_secret: signingSecret })
  .strict()
  .meta({ id: 'Webhook' });
export type WebhookResource = z.output<typeof webhookSchema>;

export const webhookListSchema = pageOf(listedWebhookSchema, {
  id: 'WebhookList',
  of: 'webhooks',
  order: 'Newest first; without signing secrets.',
});
export type WebhookPage = z.output<typeof webhookListSchema>;

/** A webhook just created, or its secret just rotated: the secret is shown with the id. */
export const webhookSecretSchema = z
  .object({ object: z.literal('webhook'), id: webhookId, signing_secret: signingSecret })
  .strict()
  .meta({ id: 'WebhookSecret', description: 'A webhook and its (new) signing secret.' });
export type WebhookSecret = z.output<typeof webhookSecretSchema>;

export const webhookRefSchema = z
  .object({ object: z.literal('webhook'), id: webhookId })
  .strict()
  .meta({ id: 'WebhookRef' });
export type WebhookRef = z.output<typeof webhookRefSchema>;

export const webhookRemovalSchema = z
  .object({ object: z.literal('webhook'), id: webhookId, deleted: z.literal(true) })
  .strict()
  .meta({ id: 'WebhookRemoval' });
export type WebhookRemoval = z.output<typeof webhookRemovalSchema>;
