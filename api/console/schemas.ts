import { z } from 'zod';

// Messages are predicates: parseInput puts the field's name in front of them.

/** `POST /console/session`: the key to sign in with. */
export const signInBodySchema = z.object(
  {
    api_key: z
      .string({ error: 'must be a string: the API key to sign in with.' })
      .trim()
      .min(1, { error: 'must not be empty: paste an API key.' })
      .max(200, { error: 'is too long to be an API key.' })
      .meta({ description: 'A `full_access` API key; it is exchanged for a session and not kept.' }),
  },
  { error: 'The request body must be a JSON object: `{"api_key": "..."}`.' },
);
