import { z } from 'zod';
import { SCOPE_PATTERN, SCOPE_RULE } from '../domain/scope.js';

/** A scope as a request names it (query or body): refused, not corrected, when it is not one. */
export const scopeInput = z
  .string({ error: 'must be a string.' })
  .regex(SCOPE_PATTERN, { error: `must be a scope: ${SCOPE_RULE}.` })
  .meta({
    description: `A named scope (${SCOPE_RULE}), such as a message stream or a newsletter.`,
    example: 'newsletter-weekly',
  });

/** An entry's scope as answers show it. */
export const scopeOutput = z.string().nullable().meta({
  description:
    'The scope the entry belongs to: `null` for the whole account (every send), or a named scope (only sends checked with that scope).',
  example: null,
});
