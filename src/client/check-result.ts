import { z } from 'zod';
import { checkResultSchema, type InvalidAddress, type SuppressionCheck } from '../contract/check.js';
import { suppressionSchema } from '../contract/suppression.js';
import { normalizeEmail } from '../domain/email.js';

/** An address the service refused to look up, at its position in the input the caller gave. */
export type { InvalidAddress };

/** The answer of `POST /suppressions/check`, and of `check()` for any number of addresses. */
export type SuppressionCheckResult = SuppressionCheck;

/**
 * The contract's answer, but an entry's unknown fields are dropped rather than refused, as the
 * answer's own are: a field the service adds later must not fail the clients already deployed. An
 * origin this client does not know still fails the answer: an entry it cannot describe is not
 * silently passed on as another.
 */
const checkAnswerSchema = checkResultSchema.extend({
  suppressed: z.array(z.object(suppressionSchema.shape)),
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
