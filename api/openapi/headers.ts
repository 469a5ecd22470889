import { z } from 'zod';

/** The `Idempotency-Key` request header of the POST operations. */
export const idempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(256).optional().meta({
    description:
      'Replays the first response for 24 hours when the same key is sent again with the same body (scoped per account).',
    example: 'b1f2c3d4-import-2026-03-14',
  }),
});

/** The response headers of every rate-limited operation. */
export const rateLimitHeaders = {
  'ratelimit-limit': {
    description: 'Requests allowed per second for the account.',
    schema: { type: 'integer' as const },
  },
  'ratelimit-remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' as const } },
  'ratelimit-reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' as const } },
};
