import { z } from 'zod';
import { UUID_PATTERN } from '../../src/domain/ids.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from '../../src/webhooks/webhook.js';
import { listQuerySchema } from '../suppressions/schemas.js';

/** An event id as the dispatcher makes it: `msg_` and a UUID's 32 hex digits. */
export const EVENT_ID_PATTERN = /^msg_[0-9a-f]{32}$/;

// Messages are predicates: parseInput puts the field's name in front of them.
const bodyObject = { error: 'The request body must be a JSON object.' };

const uuidCursor = (what: string) =>
  z
    .string({ error: 'must be a string.' })
    .regex(UUID_PATTERN, { error: `must be ${what} (a UUID).` })
    // OpenAPI metadata only (api/openapi/): JSON Schema has no regex flags, so the pattern is spelled case-insensitively.
    .meta({ format: 'uuid', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' })
    .transform((id) => id.toLowerCase());

const eventCursor = z
  .string({ error: 'must be a string.' })
  .regex(EVENT_ID_PATTERN, { error: 'must be an event id (`msg_` and 32 hex digits).' })
  .meta({ pattern: EVENT_ID_PATTERN.source });

/** `after`/`before` are exclusive, as on `GET /suppressions`. */
const oneCursor = (query: { after?: string | undefined; before?: string | undefined }) =>
  query.after === undefined || query.before === undefined;
const bothCursors = { error: '`after` and `before` cannot be used together.' };

const { limit } = listQuerySchema.shape;

export const webhookListQuerySchema = z
  .object({
    limit,
    after: uuidCursor('a webhook id').optional().meta({
      description: 'A webhook id: the page of webhooks just older than it (the next page). Not with `before`.',
      example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7',
    }),
    before: uuidCursor('a webhook id').optional().meta({
      description: 'A webhook id: the page of webhooks just newer than it (the previous page). Not with `after`.',
      example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7',
    }),
  })
  .refine(oneCursor, bothCursors);

export const eventListQuerySchema = z
  .object({
    limit,
    after: eventCursor.optional().meta({
      description: 'An event id of this webhook: the page of events just older than it. Not with `before`.',
      example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
    }),
    before: eventCursor.optional().meta({
      description: 'An event id of this webhook: the page of events just newer than it. Not with `after`.',
      example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
    }),
  })
  .refine(oneCursor, bothCursors);

export const attemptListQuerySchema = z
  .object({
    limit,
    after: uuidCursor('an attempt id').optional().meta({
      description: 'An attempt id: the page of attempts just older than it. Not with `before`.',
      example: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0',
    }),
    before: uuidCursor('an attempt id').optional().meta({
      description: 'An attempt id: the page of attempts just newer than it. Not with `after`.',
      example: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0',
    }),
  })
  .refine(oneCursor, bothCursors);

const endpoint = z.string({ error: 'must be a string.' }).meta({
  description:
    'Where deliveries are posted: an absolute `https://` URL on the public internet, without credentials (at most 2048 characters).',
  example: 'https://hooks.example.com/suppressions',
});

const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.` }), {
    error: 'must be an array of event types.',
  })
  .min(1, { error: 'must have at least 1 item.' })
  .meta({ description: 'The change events to deliver.', example: ['suppression.added', 'suppression.removed'] });

const status = z
  .enum(WEBHOOK_STATUSES, { error: `must be one of ${WEBHOOK_STATUSES.join(', ')}.` })
  .meta({ description: 'A `disabled` webhook gets no new events; its due deliveries are given up.' });

export const createWebhookBodySchema = z.object({ endpoint, events }, bodyObject);

export const updateWebhookBodySchema = z
  .object({ endpoint: endpoint.optional(), events: events.optional(), status: status.optional() }, bodyObject)
  .refine((body) => body.endpoint !== undefined || body.events !== undefined || body.status !== undefined, {
    error: 'Provide at least one of `endpoint`, `events` or `status`.',
  });
