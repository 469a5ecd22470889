import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { FeedMapper, MappedPayload, MappingContext } from '../../src/feeds/feed-mapping.js';

/** A source id the mappings make from a message id: a UUIDv5. */
export const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The text of one of a provider's documented payloads in test/fixtures/feeds/<provider>/. */
export function feedFixture(provider: string, file: string): string {
  return readFileSync(new URL(`../fixtures/feeds/${provider}/${file}`, import.meta.url), 'utf8');
}

/**
 * The checks of a provider's mapping: what it makes of a body, each event checked against the
 * event schema the workers use, and the message of its refusal of a body it must refuse.
 */
export function mappingChecks(map: FeedMapper, defaultContext: MappingContext) {
  const mapped = (body: string, context = defaultContext): MappedPayload => {
    const result = map(body, {}, context);
    for (const event of result.events) expect(() => parseSuppressionEvent(event)).not.toThrow();
    return result;
  };
  const refusal = (body: string): string => {
    try {
      map(body, {}, defaultContext);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidPayloadError);
      return (error as Error).message;
    }
    throw new Error('expected the payload to be refused');
  };
  return { mapped, refusal };
}
