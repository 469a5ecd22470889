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
  raw.forEach((value, index) => {
    const stored = isStoredForm(value);
    const email = stored ? value : normalizeEmail(value);
    const reason = stored ? null : emailProblem(email);
    if (reason !== null) {
      invalid.push({ index, value, reason });
    } else if (!seen.has(email)) {
      seen.add(email);
      valid.push(email);
    }
  });
  return { valid, invalid };
}
