import { expect } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { FeedMapper, MappedPayload, MappingContext } from '../../src/feeds/feed-mapping.js';

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
