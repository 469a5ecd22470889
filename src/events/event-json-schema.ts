import { z } from 'zod';
import { UUID_PATTERN } from '../domain/ids.js';
import { suppressionEventSchema } from './event-schema.js';

type JsonSchema = z.core.JSONSchema.BaseSchema;

/** What each field means, for the readers of the schema; the constraints come from the zod schema. */
const DESCRIPTIONS: Record<string, string> = {
  account_id: 'The account’s UUID. `POST /events` fills it in with the API key’s account when it is left out.',
  event_id:
    'The upstream’s unique id for this event: the same (account_id, event_id) again is a duplicate and changes nothing.',
  type: 'What happened; a job on the queue is named after it.',
  email: 'The recipient. Trimmed and lower-cased, then checked as the API checks addresses.',
  source_id: 'The UUID of the email that triggered the event; kept as the entry’s source.',
  occurred_at: 'When it happened: an ISO 8601 timestamp with a time zone or offset.',
  bounce:
    'Required when type is bounce. The free-text fields are the classifier’s evidence, kept as they came and cut to a sane length rather than refused.',
  complaint: 'For a complaint: the feedback type of the report (`not-spam` and `auth-failure` suppress nothing).',
  reactivation:
    'Required when type is reactivation: the provider withdrawing its own verdict on the address. Only the service’s provider feeds reactivate: `POST /events` refuses a reactivation.',
  provider_message_id: 'The sending provider’s id for the message, kept in the audit trail.',
  feed_id:
    'Set by the service’s own provider feeds, and required with a reactivation, which only they send; `POST /events` ignores it.',
  scope: 'The scope the message was sent in, such as newsletter; without it the event is for the whole account.',
};

/** The UUID pattern without its `i` flag, which JSON Schema cannot carry: both cases spelled out. */
export const UUID_JSON_PATTERN = UUID_PATTERN.source.replaceAll('a-f', 'a-fA-F');

/**
 * zod keeps a pattern's flags, JSON Schema has none: a case-insensitive pattern is spelled out with
 * both cases. Only the UUID's is in the schema; any other would have to be added here.
 */
function withoutFlags(pattern: RegExp): string {
  if (pattern.flags === '') return pattern.source;
  if (pattern === UUID_PATTERN) return UUID_JSON_PATTERN;
  throw new Error(`no JSON Schema spelling for the pattern ${String(pattern)}`);
}

/**
 * The job format (`suppressionEventSchema`) as a JSON Schema (draft 2020-12), for producers in other
 * languages and for `POST /events`: what a producer may send, before the workers normalise it.
 * The rules zod checks in code (`bounce` with a bounce, `reactivation` and `feed_id` with a
 * reactivation) are added as conditions.
 */
export function eventJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(suppressionEventSchema, {
    io: 'input',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => {
      const checks: readonly z.core.$ZodCheck[] = zodSchema._zod.def.checks ?? [];
      for (const check of checks) {
        const { pattern } = check._zod.def as { pattern?: unknown };
        if (pattern instanceof RegExp && jsonSchema.pattern !== undefined) jsonSchema.pattern = withoutFlags(pattern);
      }
    },
  });
  const properties = generated.properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const description = DESCRIPTIONS[name];
    if (description === undefined) throw new Error(`the event field ${name} has no description`);
    if (typeof property === 'object') property.description = description;
  }
  return {
    ...generated,
    title: 'Bounce or complaint event',
    description:
      'A bounce, complaint or reactivation as a mail system reports it: the data of a job on the `suppression-events` queue, and each item of `POST /events`. Fields not listed are ignored.',
    allOf: [
      { if: { properties: { type: { const: 'bounce' } }, required: ['type'] }, then: { required: ['bounce'] } },
      {
        if: { properties: { type: { const: 'reactivation' } }, required: ['type'] },
        then: { required: ['reactivation', 'feed_id'] },
      },
    ],
  };
}
