import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from '../../src/webhooks/webhook.js';
import { EVENT_ID_PATTERN } from './schemas.js';
import { suppressionSchema } from '../openapi/schemas.js';

/** The shapes of the `/webhooks` answers, as Resend's SDK types them; `.strict()` as in schemas.ts. */

const webhookId = z
  .uuid()
  .meta({ description: 'Webhook id (UUIDv7, time-ordered).', example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7' });

const eventId = z.string().regex(EVENT_ID_PATTERN).meta({
  description: 'Event id: also the `webhook-id` header of every attempt to deliver it, so receivers can drop repeats.',
  example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
});

const timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ description: 'ISO 8601 UTC with milliseconds.', example: '2026-03-14T09:26:53.589Z' });

const signingSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+=*$/)
  .meta({
    description:
      'What deliveries are signed with (Standard Webhooks, as Resend and Svix sign): `whsec_` and 32 random bytes in base64.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Kd5eOqx0Aw=',
  });

const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const webhookStatus = z.enum(WEBHOOK_STATUSES);
const eventStatus = z.enum(['pending', 'attempting', 'success', 'failed']).meta({
  description:
    '`pending`: not tried yet (or replayed); `attempting`: failed, and to be retried; `success`: delivered; `failed`: given up after its retries, or its webhook was disabled.',
});

const listedWebhookFields = {
  id: webhookId,
  endpoint: z.string().meta({ example: 'https://hooks.example.com/suppressions' }),
  created_at: timestamp,
  status: webhookStatus,
  events: z.array(eventType),
};

export const listedWebhookSchema = z.object(listedWebhookFields).strict().meta({ id: 'ListedWebhook' });

export const webhookSchema = z
  .object({ object: z.literal('webhook'), ...listedWebhookFields, signing_secret: signingSecret })
  .strict()
  .meta({ id: 'Webhook' });

export const webhookListSchema = z
  .object({
    object: z.literal('list'),
    has_more: z
      .boolean()
      .meta({ description: 'Whether more webhooks exist beyond this page in the direction of travel.' }),
    data: z.array(listedWebhookSchema).meta({ description: 'Newest first; without signing secrets.' }),
  })
  .strict()
  .meta({ id: 'WebhookList' });

export const webhookSecretSchema = z
  .object({ object: z.literal('webhook'), id: webhookId, signing_secret: signingSecret })
  .strict()
  .meta({ id: 'WebhookSecret', description: 'A webhook and its (new) signing secret.' });

export const webhookRefSchema = z
  .object({ object: z.literal('webhook'), id: webhookId })
  .strict()
  .meta({ id: 'WebhookRef' });

export const webhookRemovalSchema = z
  .object({ object: z.literal('webhook'), id: webhookId, deleted: z.literal(true) })
  .strict()
  .meta({ id: 'WebhookRemoval' });

const eventLogFields = { id: eventId, type: eventType, created_at: timestamp, status: eventStatus };

export const eventLogEntrySchema = z.object(eventLogFields).strict().meta({ id: 'WebhookEventLogEntry' });

export const eventListSchema = z
  .object({
    object: z.literal('list'),
    has_more: z.boolean(),
    data: z.array(eventLogEntrySchema).meta({ description: 'Newest change first.' }),
  })
  .strict()
  .meta({ id: 'WebhookEventList' });

export const eventPayloadSchema = z
  .object({
    type: eventType,
    created_at: timestamp.meta({ description: 'When the entry was added or removed.' }),
    data: suppressionSchema.meta({
      description: 'The entry as it was added, or as it was just before it was removed.',
    }),
  })
  .strict()
  .meta({ id: 'WebhookEventPayload', description: 'The body every attempt posts, byte for byte as signed.' });

export const webhookEventSchema = z
  .object({
    object: z.literal('webhook_event'),
    ...eventLogFields,
    next_attempt_at: timestamp
      .nullable()
      .meta({ description: 'When it is next tried; `null` once delivered or given up.' }),
    payload: eventPayloadSchema,
  })
  .strict()
  .meta({ id: 'WebhookEvent' });

export const webhookEventRefSchema = z
  .object({ object: z.literal('webhook_event'), id: eventId })
  .strict()
  .meta({ id: 'WebhookEventRef' });

export const attemptSchema = z
  .object({
    id: z.uuid().meta({ example: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0' }),
    http_status_code: z
      .int()
      .meta({ description: 'The endpoint’s status; 0 when none came back (refused, no connection, timeout).' }),
    response: z.string().meta({ description: 'The endpoint’s answer, or what went wrong when none came back.' }),
    sent_at: timestamp,
  })
  .strict()
  .meta({ id: 'WebhookEventAttempt' });

export const attemptListSchema = z
  .object({
    object: z.literal('list'),
    has_more: z.boolean(),
    data: z.array(attemptSchema).meta({ description: 'Newest first.' }),
  })
  .strict()
  .meta({ id: 'WebhookEventAttemptList' });

export const webhookParamsSchema = z.object({
  webhook_id: z.string().meta({ description: 'A webhook id (UUID); any other value is an unknown webhook (404).' }),
});

export const eventParamsSchema = z.object({
  webhook_id: z.string().meta({ description: 'A webhook id (UUID); any other value is an unknown webhook (404).' }),
  event_id: z.string().meta({ description: 'An event id of that webhook (`msg_` and 32 hex digits).' }),
});
