import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { eventJsonSchema } from '../../src/events/event-json-schema.js';
import { suppressionEventSchema, type SuppressionEventInput } from '../../src/events/event-schema.js';

const ACCOUNT = '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d';
const SOURCE = '3f1c2b4a-1111-4222-8333-944455556666';

const bounce: SuppressionEventInput = {
  account_id: ACCOUNT,
  event_id: 'mta-1',
  type: 'bounce',
  email: 'jane@example.com',
  source_id: SOURCE,
  occurred_at: '2026-11-21T20:30:06.685Z',
  bounce: { type: 'permanent', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
};
const complaint: SuppressionEventInput = {
  ...bounce,
  event_id: 'fbl-1',
  type: 'complaint',
  bounce: undefined,
  complaint: { feedback_type: 'abuse' },
};

/** Events the workers take, each as a mail system might write it. */
const VALID: Record<string, unknown> = {
  'a bounce': bounce,
  'a complaint in a scope': { ...complaint, scope: 'newsletter' },
  'a complaint with no details': { ...complaint, complaint: undefined },
  'a reactivation from a feed': {
    ...complaint,
    type: 'reactivation',
    complaint: undefined,
    reactivation: { provider: 'postmark' },
    feed_id: `feed_${'a'.repeat(32)}`,
  },
  'UUIDs in capitals': { ...bounce, account_id: ACCOUNT.toUpperCase(), source_id: SOURCE.toUpperCase() },
  'a numeric reply code and a diagnostic longer than is kept': {
    ...bounce,
    bounce: { type: 'transient', reply_code: 452, diagnostic: 'x'.repeat(5000) },
  },
  'a time with an offset': { ...bounce, occurred_at: '2026-11-21T21:30:06+01:00' },
  'a scope of null': { ...bounce, scope: null },
  'fields of its own': { ...bounce, x_mta_queue_id: '4Fz1xk2Qb9z' },
};

/** Events the workers refuse, for a reason the schema can state. */
const INVALID: Record<string, unknown> = {
  'not an object': [bounce],
  'no address': { ...bounce, email: undefined },
  'a bounce without its bounce': { ...bounce, bounce: undefined },
  'a reactivation without its provider': {
    ...complaint,
    type: 'reactivation',
    complaint: undefined,
    feed_id: `feed_${'a'.repeat(32)}`,
  },
  'a reactivation that names no feed': {
    ...complaint,
    type: 'reactivation',
    complaint: undefined,
    reactivation: { provider: 'postmark' },
  },
  'an unknown type': { ...bounce, type: 'deferral' },
  'an unknown bounce type': { ...bounce, bounce: { type: 'hard' } },
  'a source that is no UUID': { ...bounce, source_id: 'msg-42' },
  'a time without a zone': { ...bounce, occurred_at: '2026-11-21T20:30:06' },
  'a date alone': { ...bounce, occurred_at: '2026-11-21' },
  'an empty event id': { ...bounce, event_id: '' },
  'an event id of 256 characters': { ...bounce, event_id: 'e'.repeat(256) },
  'a scope in capitals': { ...bounce, scope: 'Newsletter' },
  'a number for an address': { ...bounce, email: 42 },
};

const ajv = new Ajv2020({ allErrors: true });
formats.default(ajv);
const validate = ajv.compile(eventJsonSchema());
const workersTake = (event: unknown) => suppressionEventSchema.safeParse(event).success;

describe('the job format as a JSON Schema', () => {
  it('when docs/events.schema.json is read, then it is the schema generated from the event schema (npm run docs:event-schema writes it)', () => {
    const committed: unknown = JSON.parse(
      readFileSync(new URL('../../docs/events.schema.json', import.meta.url), 'utf8'),
    );

    expect(committed, 'run `npm run docs:event-schema`').toEqual(eventJsonSchema());
  });

  it.each(Object.entries(VALID))('when an event is %s, then the schema and the workers take it', (_name, event) => {
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    expect(workersTake(event)).toBe(true);
  });

  it.each(Object.entries(INVALID))('when an event is %s, then the schema and the workers refuse it', (_name, event) => {
    expect(validate(event)).toBe(false);
    expect(workersTake(event)).toBe(false);
  });

  it('when an address is malformed, then the schema takes it and only the workers refuse it: addresses are checked as the API checks them', () => {
    const event = { ...bounce, email: 'jane@' };

    expect(validate(event)).toBe(true);
    expect(workersTake(event)).toBe(false);
  });

  it('when the event schema gains a field, then it must be described for the JSON Schema', () => {
    const fields = Object.keys(suppressionEventSchema.shape);
    const described = Object.entries(eventJsonSchema().properties ?? {})
      .filter(([, property]) => typeof property === 'object' && typeof property.description === 'string')
      .map(([name]) => name);

    expect(described).toEqual(fields);
  });
});
