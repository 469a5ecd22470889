import { z } from 'zod';

/** The session as the console reads it: who is signed in, and the token its changes must carry. */
export const consoleSessionSchema = z
  .object({
    object: z.literal('console_session'),
    account: z.object({ id: z.uuid(), name: z.string() }).strict(),
    csrf_token: z
      .string()
      .meta({ description: 'Sent back as `X-CSRF-Token` on every request that changes something.' }),
    expires_at: z.iso.datetime().meta({ description: 'When the session ends, whatever is done with it.' }),
  })
  .strict()
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.output<typeof consoleSessionSchema>;
