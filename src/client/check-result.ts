import { z } from 'zod';
import { normalizeEmail } from '../domain/email.js';
import { ORIGINS, type SuppressionResource } from '../suppressions/suppression.js';

/** An address the service refused to look up, at its position in the input the caller gave. */
export interface InvalidAddress {
  /** Position in the input, from 0. */
  index: number;
  /** The address as given. */
  email: string;
  reason: string;
}

/** The answer of `POST /suppressions/check`, and of `check()` for any number of addresses. */
export interface SuppressionCheckResult {
  object: 'suppression_check';
  /** Distinct valid addresses looked up. */
  checked: number;
  /** The entry of each suppressed address, once, in the order the addresses first appear. */
  suppressed: SuppressionResource[];
  invalid: InvalidAddress[];
}

const suppressionSchema = z.object({
  object: z.literal('suppression'),
  id: z.string(),
  email: z.string(),
  // An origin this client does not know fails the answer: an entry it cannot describe is not
  // silently passed on as another.
  origin: z.enum(ORIGINS),
  source_id: z.string().nullable(),
  created_at: z.string(),
});

const checkAnswerSchema = z.object({
  object: z.literal('suppression_check'),
  checked: z.int().nonnegative(),
  suppressed: z.array(suppressionSchema),
  invalid: z.array(z.object({ index: z.int().nonnegative(), email: z.string(), reason: z.string() })),
});

/**
 * The check result in a response body to a request for `emails`, or why it is not one. Beyond its
 * shape, the answer must be about exactly these addresses: what is sendable is what is left once the
 * suppressed are taken out, so an answer that counted, normalised or listed addresses differently
 * from this client could let a suppressed address through.
 */
export function parseCheckAnswer(
  body: unknown,
  emails: readonly string[],
): { result: SuppressionCheckResult } | { problem: string } {
  const parsed = checkAnswerSchema.safeParse(body);
  if (!parsed.success) return { problem: `not a check result (${z.prettifyError(parsed.error)})` };
  const result = parsed.data;

  const invalidAt = new Set<number>();
  for (const { index, email } of result.invalid) {
    if (index >= emails.length || emails[index] !== email) {
      return { problem: `invalid[${index}] is not the address sent at that position` };
    }
    if (invalidAt.has(index)) return { problem: `index ${index} is listed as invalid twice` };
    invalidAt.add(index);
  }

  const valid = new Set<string>();
  emails.forEach((email, index) => {
    if (!invalidAt.has(index)) valid.add(normalizeEmail(email));
  });
  if (result.checked !== valid.size) {
    return { problem: `${result.checked} addresses checked, but ${valid.size} distinct valid addresses were sent` };
  }

  const listed = new Set<string>();
  for (const { email } of result.suppressed) {
    if (!valid.has(email)) return { problem: `the suppressed address ${email} is not one that was sent` };
    if (listed.has(email)) return { problem: `the suppressed address ${email} is listed twice` };
    listed.add(email);
  }
  return { result };
}
