import { z } from 'zod';

/** The answers of `/health`, `/ready` and a provider's feed: the operations that take no API key. */

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export type Health = z.output<typeof healthSchema>;

const check = z.enum(['ok', 'failed']);

export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z
      .object({
        database: check,
        redis: check.optional().meta({ description: 'Present when the process uses Redis.' }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Readiness' });
export type Readiness = z.output<typeof readinessSchema>;

export const feedDeliverySchema = z
  .object({
    object: z.literal('feed_delivery'),
    queued: z.number().int().meta({ description: 'Bounces and complaints queued, one per recipient.' }),
    ignored: z.number().int().meta({
      description: 'Events acknowledged without a record: deliveries, opens, clicks, deferrals, unusable addresses.',
    }),
  })
  .meta({ id: 'FeedDelivery' });
export type FeedDelivery = z.output<typeof feedDeliverySchema>;
