import { z } from 'zod';
import { MAX_POSTED_EVENTS } from '../../src/contract/limits.js';
import { UUID_JSON_PATTERN } from '../../src/events/event-json-schema.js';
import { suppressionEventSchema } from '../../src/events/event-schema.js';

const LIMIT = MAX_POSTED_EVENTS.toLocaleString('en');

const { account_id: accountId, source_id: sourceId } = suppressionEventSchema.shape;

/**
 * An event as `POST /events` takes it: the job format's fields, its account that of the key when
 * left out. The format's two rules across fields are in the description, as zod does not document
 * them; the UUIDs' pattern is given, as the document's generator would write the `i` flag into it.
 */
const postedEventSchema = z
  .object({
    ...suppressionEventSchema.shape,
    account_id: accountId.optional().meta({ pattern: UUID_JSON_PATTERN }),
    source_id: sourceId.meta({ pattern: UUID_JSON_PATTERN }),
  })
  .meta({
    description:
      'An event in the job format (its JSON Schema is at `GET /events/schema.json`). `account_id` may be left out: it is the key’s account, and any other is refused. `bounce` is required when `type` is `bounce`, and `reactivation` when it is `reactivation`.',
  });

/**
 * The body of `POST /events`, as the document shows it. The endpoint checks it itself
 * (`parsePostedEvents`), so that a refusal can name every invalid event rather than the first.
 */
export const postedEventsBodySchema = z.object({
  events: z
    .array(postedEventSchema)
    .min(1)
    .max(MAX_POSTED_EVENTS)
    .meta({ description: `1 to ${LIMIT} events; one invalid event refuses them all.` }),
});
