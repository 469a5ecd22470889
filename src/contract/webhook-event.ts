import { z } from 'zod';
import { timestamp } from './fields.js';
import { pageOf } from './paging.js';
import { suppressionSchema } from './suppression.js';
import { webhookEventTypeSchema } from './webhook.js';

/** An event id as the dispatcher makes it: `msg_` and a UUID's 32 hex digits. */
export const EVENT_ID_PATTERN = /^msg_[0-9a-f]{32}$/;

export const WEBHOOK_EVENT_STATUSES = ['pending', 'attempting', 'success', 'failed'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

const eventId = z.string().regex(EVENT_ID_PATTERN).meta({
  description: 'Event id: also the `webhook-id` header of every attempt to deliver it, so receivers can drop repeats.',
  example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
});

const eventLogFields = {
  id: eventId,
  type: webhookEventTypeSchema,
  created_at: timestamp,
  status: z.enum(WEBHOOK_EVENT_STATUSES).meta({
    description:
      '`pending`: not tried yet (or replayed); `attempting`: failed, and to be retried; `success`: delivered; `failed`: given up after its retries, or its webhook was disabled.',
  }),
};

/** A delivery as a webhook's event log lists it (the SDK's `WebhookEventLog`). */
export const eventLogEntrySchema = z.object(eventLogFields).strict().meta({ id: 'WebhookEventLogEntry' });
export type EventLogEntry = z.output<typeof eventLogEntrySchema>;

export const eventListSchema = pageOf(eventLogEntrySchema, {
  id: 'WebhookEventList',
  of: 'events',
  order: 'Newest change first.',
});
export type EventLogPage = z.output<typeof eventListSchema>;

export const eventPayloadSchema = z
  .object({
    type: webhookEventTypeSchema,
    created_at: timestamp.meta({ description: 'When the entry was added or removed.' }),
    data: suppressionSchema.meta({
      description: 'The entry as it was added, or as it was just before it was removed.',
    }),
  })
  .strict()
  .meta({ id: 'WebhookEventPayload', description: 'The body every attempt posts, byte for byte as signed.' });
export type WebhookEventPayload = z.output<typeof eventPayloadSchema>;

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
export type WebhookEventResource = z.output<typeof webhookEventSchema>;

export const webhookEventRefSchema = z
  .object({ object: z.literal('webhook_event'), id: eventId })
  .strict()
  .meta({ id: 'WebhookEventRef' });
export type WebhookEventRef = z.output<typeof webhookEventRefSchema>;

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
export type AttemptResource = z.output<typeof attemptSchema>;

export const attemptListSchema = pageOf(attemptSchema, {
  id: 'WebhookEventAttemptList',
  of: 'attempts',
  order: 'Newest first.',
});
export type AttemptPage = z.output<typeof attemptListSchema>;
