import { queuedEventsSchema, type QueuedEvents } from '../../src/contract/events.js';
import { MAX_POSTED_EVENTS } from '../../src/contract/limits.js';
import { queuePostedEvents } from '../../src/events/posted-events.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { jsonRequest } from '../openapi/requests.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { EventsDeps } from './deps.js';
import { postedEventsBodySchema } from './schemas.js';

const exampleEvents = [
  {
    event_id: 'mta-7d1c2e-1',
    type: 'bounce',
    email: 'jane@example.com',
    source_id: '5d1e9f0c-6a4b-4f7e-9c3d-2b8a1e0f4c6d',
    occurred_at: '2026-11-21T20:30:06.685Z',
    bounce: { type: 'permanent', status: '5.1.1', reply_code: '550', diagnostic: 'smtp; 550 5.1.1 user unknown' },
  },
  {
    event_id: 'fbl-20261121-0042',
    type: 'complaint',
    email: 'sam@example.com',
    source_id: '0b8f3c7e-2d4a-4e61-9a5b-7c1d2e3f4a5b',
    occurred_at: '2026-11-21T20:31:00Z',
    complaint: { feedback_type: 'abuse' },
    scope: 'newsletter',
  },
];

/**
 * Bounces and complaints from any mail system over HTTP, in the job format: queued as the producer
 * library queues them, with the same job ids, so a retried request is harmless. A sending key may
 * post them: the mail system that sends is the one that hears of the bounces.
 */
export const postEventsEndpoint: Endpoint<EventsDeps> = {
  method: 'post',
  path: '/',
  access: 'sending',
  // Events are evidence from mail servers: their schema strips what cannot be stored.
  body: 'evidence',
  doc: {
    operationId: 'postEvents',
    tags: ['Events'],
    summary: 'Hand in bounce and complaint events',
    description: `Queues 1 to ${MAX_POSTED_EVENTS.toLocaleString('en')} events in the job format (\`GET /events/schema.json\`) for the workers, as the producer library does: answered 202 once every event is on the queue, with each event's job id. \`account_id\` may be left out; it must be the key's account when given. One invalid event refuses the request, and nothing is queued. Each job id is derived from the account and \`event_id\`, so a request sent again (after a timeout, say) queues nothing twice, and an event the workers already applied is a duplicate that changes nothing. A \`sending_access\` key may call it.`,
    request: {
      body: jsonRequest(postedEventsBodySchema, { example: { events: exampleEvents } }),
    },
    responses: {
      202: jsonAnswer('Every event is queued; the workers apply them.', queuedEventsSchema, {
        object: 'queued_events',
        count: 2,
        job_ids: [
          '01a1ffcd-4215-740e-b6ab-24a2faf4d728.bXRhLTdkMWMyZS0x',
          '01a1ffcd-4215-740e-b6ab-24a2faf4d728.ZmJsLTIwMjYxMTIxLTAwNDI',
        ],
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  handler:
    ({ publish, metrics }) =>
    async (req, res) => {
      const { jobIds, types } = await queuePostedEvents(req.body, accountOf(res), publish);
      for (const [type, count] of types) metrics.postedEvents.inc({ type }, count);
      res
        .status(202)
        .json({ object: 'queued_events', count: jobIds.length, job_ids: [...jobIds] } satisfies QueuedEvents);
    },
};
