import { emailProblem, isStoredForm, normalizeEmail } from './email.js';

export interface InvalidEmail {
  /** Position in the input, from 0. */
  index: number;
  value: string;
  reason: string;
}

export interface PartitionedEmails {
  /** Normalised, each address once, in first-seen order. */
  valid: string[];
  invalid: InvalidEmail[];
}

export function partitionEmails(raw: readonly string[]): PartitionedEmails {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: InvalidEmail[] = [];
  for (let index = 0; index < raw.length; index += 1) {
    const value = raw[index] as string;
    const stored = isStoredForm(value);
    const email = stored ? value : normalizeEmail(value);
    const reason = stored ? null : emailProblem(email);
    if (reason !== null) {
      invalid.push({ index, value, reason });
      continue;
    }
    // One hash of the address, not two: the set grows only for an address it did not hold.
    const size = seen.size;
    seen.add(email);
    if (seen.size !== size) valid.push(email);
  }
  return { valid, invalid };
}
