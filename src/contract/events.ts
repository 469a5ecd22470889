import { z } from 'zod';
import { MAX_POSTED_EVENTS } from './limits.js';

/** The answer to `POST /events`: every event of the request is on the queue. */
export const queuedEventsSchema = z
  .object({
    object: z.literal('queued_events'),
    count: z
      .number()
      .int()
      .meta({ description: `The events of the request, 1 to ${MAX_POSTED_EVENTS.toLocaleString('en')}.` }),
    job_ids: z.array(z.string()).meta({
      description:
        'Each event’s job id on the `suppression-events` queue, in the order of the request: `<account_id>.<event_id in base64url>`, the id the producer library gives it, so an event sent twice is one job.',
    }),
  })
  .meta({ id: 'QueuedEvents' });
export type QueuedEvents = z.output<typeof queuedEventsSchema>;
