import { z } from 'zod';

/** The answers of `/health`, `/ready` and a provider's feed: the operations that take no API key. */

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export type Health = z.output<typeof healthSchema>;

const check = z.enum(['ok', 'failed']);

export const replicaStatusSchema = z
  .object({
    replica: z.string().meta({ description: '`host:port/database` of a DATABASE_READ_URL (never its password).' }),
    state: z.enum(['ok', 'lagging', 'down']).meta({
      description:
        '`ok`: read from. `lagging`: answers, but is further behind the primary than DATABASE_READ_MAX_LAG_MS, so its reads go to the primary. `down`: does not answer as a replica; its reads go to the primary.',
    }),
    lag_ms: z.number().int().nullable().meta({
      description: 'How far behind the primary it is, from WAL positions (0 when caught up); null while down.',
    }),
  })
  .strict();

export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'unavailable', 'stopping']).meta({
      description:
        '`unavailable`: a dependency does not answer. `stopping`: the process has been told to stop and finishes what it has in hand; send elsewhere.',
    }),
    checks: z
      .object({
        database: check,
        redis: check.optional().meta({ description: 'Present when the process uses Redis.' }),
        replicas: z.array(replicaStatusSchema).optional().meta({
          description:
            'Present when DATABASE_READ_URL names read replicas. A replica lagging or down never makes the process unready: the primary serves its reads.',
        }),
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
