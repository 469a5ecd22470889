import { z } from 'zod';
import { MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import { scopeInput } from '../../src/contract/scope.js';

/** The longest Message-ID taken: a header line's limit (RFC 5322, 998 characters). */
const MAX_MESSAGE_ID_LENGTH = 998;

export const returnPathsBodySchema = z.object(
  {
    recipients: z
      .array(z.string({ error: 'must be a string.' }), {
        error: `must be an array of 1 to ${MAX_CHECK_ITEMS} items.`,
      })
      .min(1, { error: 'must have at least 1 item.' })
      .max(MAX_CHECK_ITEMS, { error: `must have at most ${MAX_CHECK_ITEMS} items.` })
      .meta({ description: 'The recipients of the message: each gets its own return path.' }),
    scope: scopeInput.nullable().optional().meta({
      description:
        'The scope the message is sent in, which a complaint about it goes to; absent or `null`: the whole account.',
    }),
    message_id: z
      .string({ error: 'must be a string.' })
      .trim()
      .min(1, { error: 'must not be empty.' })
      .max(MAX_MESSAGE_ID_LENGTH, { error: `must be at most ${MAX_MESSAGE_ID_LENGTH} characters.` })
      .regex(/^[\x21-\x7e]+$/, { error: 'must be a Message-ID: printable ASCII without spaces.' })
      .optional()
      .meta({
        description:
          'The Message-ID of the message, with or without its angle brackets: the return path carries a 6-byte digest of it, which a report enclosing the message is checked against.',
        example: '<0f1e2d3c@mail.example.com>',
      }),
    domain: z.string({ error: 'must be a string.' }).optional().meta({
      description: 'One of the service’s bounce domains (`BOUNCE_DOMAINS`); the first when absent.',
      example: 'bounces.example.com',
    }),
  },
  { error: 'The request body must be a JSON object.' },
);
