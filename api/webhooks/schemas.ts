import { z } from 'zod';
import { cursorQuery, oneCursorAtATime, uuidParameter } from '../../src/contract/cursor-query.js';
import { EVENT_ID_PATTERN } from '../../src/contract/webhook-event.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from '../../src/contract/webhook.js';

// Messages are predicates: parseInput puts the field's name in front of them.
const bodyObject = { error: 'The request body must be a JSON object.' };

const eventCursor = z
  .string({ error: 'must be a string.' })
  .regex(EVENT_ID_PATTERN, { error: 'must be an event id (`msg_` and 32 hex digits).' })
  .meta({ pattern: EVENT_ID_PATTERN.source });

export const webhookListQuerySchema = oneCursorAtATime(
  cursorQuery(uuidParameter('a webhook id'), {
    after: {
      description: 'A webhook id: the page of webhooks just older than it (the next page). Not with `before`.',
      example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7',
    },
    before: {
      description: 'A webhook id: the page of webhooks just newer than it (the previous page). Not with `after`.',
      example: '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7',
    },
  }),
);

export const eventListQuerySchema = oneCursorAtATime(
  cursorQuery(eventCursor, {
    after: {
      description: 'An event id of this webhook: the page of events just older than it. Not with `before`.',
      example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
    },
    before: {
      description: 'An event id of this webhook: the page of events just newer than it. Not with `after`.',
      example: 'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
    },
  }),
);

export const attemptListQuerySchema = oneCursorAtATime(
  cursorQuery(uuidParameter('an attempt id'), {
    after: {
      description: 'An attempt id: the page of attempts just older than it. Not with `before`.',
      example: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0',
    },
    before: {
      description: 'An attempt id: the page of attempts just newer than it. Not with `after`.',
      example: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0',
    },
  }),
);

/** `{webhook_id}` of the paths: any value is taken, and one that is no webhook's id is a 404. */
export const webhookParamsSchema = z.object({
  webhook_id: z.string().meta({ description: 'A webhook id (UUID); any other value is an unknown webhook (404).' }),
});

export const eventParamsSchema = webhookParamsSchema.extend({
  event_id: z.string().meta({ description: 'An event id of that webhook (`msg_` and 32 hex digits).' }),
});

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
