import { emailProblem, isStoredForm, normalizeEmail } from './email.js';

export interface InvalidEmail {
  /** Position in the input, from 0. */
  index: number;
  value: string;
  reason: string;
}

export interface PartitionedEmails {
  /** Normalised, in first-seen order. */
  valid: string[];
  invalid: InvalidEmail[];
}

/** Each item normalised, or why it is not an address: the valid ones in order, repeats kept. */
export function normalizedEmails(raw: readonly string[]): PartitionedEmails {
  const valid: string[] = [];
  const invalid: InvalidEmail[] = [];
  for (let index = 0; index < raw.length; index += 1) {
    const value = raw[index] as string;
    const stored = isStoredForm(value);
    const email = stored ? value : normalizeEmail(value);
    const reason = stored ? null : emailProblem(email);
    if (reason === null) valid.push(email);
    else invalid.push({ index, value, reason });
  }
  return { valid, invalid };
}

/** Each item normalised, or why it is not an address: the valid ones each once, in first-seen order. */
export function partitionEmails(raw: readonly string[]): PartitionedEmails {
  const { valid, invalid } = normalizedEmails(raw);
  return { valid: [...new Set(valid)], invalid };
}
