import { z } from 'zod';

export const errorSchema = z
  .object({
    statusCode: z.int().meta({ description: 'The HTTP status, repeated.' }),
    name: z.string().meta({ description: 'Stable error code clients match on.' }),
    message: z.string().meta({ description: 'Human-readable explanation.' }),
  })
  .strict()
  .meta({ id: 'Error', description: 'Every error answer (the shape Resend SDKs parse).' });
export type ErrorResource = z.output<typeof errorSchema>;
