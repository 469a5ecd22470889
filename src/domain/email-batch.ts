import { emailProblem, normalizeEmail } from './email.js';

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
    const email = normalizeEmail(value);
    const reason = emailProblem(email);
    if (reason !== null) {
      invalid.push({ index, value, reason });
    } else if (!seen.has(email)) {
      seen.add(email);
      valid.push(email);
    }
  });
  return { valid, invalid };
}
