import { z } from 'zod';
import { suppressionSchema } from './suppression.js';

/** An item of a check that is not an address, at its position in the request. */
export const invalidAddressSchema = z.object({
  index: z.int().min(0).meta({ description: 'Position in `emails`, from 0.' }),
  email: z.string().meta({ description: 'The item as it was sent.' }),
  reason: z.string(),
});
export type InvalidAddress = z.output<typeof invalidAddressSchema>;

/**
 * The answer of `POST /suppressions/check`. Not `.strict()` at its top: the client library reads it
 * with this schema, and a field added to the answer must not fail the clients already deployed.
 */
export const checkResultSchema = z
  .object({
    object: z.literal('suppression_check'),
    checked: z.int().min(0).meta({ description: 'Distinct valid addresses looked up.' }),
    suppressed: z
      .array(suppressionSchema)
      .meta({ description: 'The entry of each suppressed address, once, in the order of first appearance.' }),
    invalid: z
      .array(invalidAddressSchema)
      .meta({ description: 'Items that are not addresses: they cannot be mailed either.' }),
  })
  .meta({ id: 'SuppressionCheck' });
export type SuppressionCheck = z.output<typeof checkResultSchema>;
