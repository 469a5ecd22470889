import { randomUUID } from 'node:crypto';

/** Distinct addresses for one test, so tests never share data. */
export function uniqueEmails(count: number, domain = 'example.com'): string[] {
  const tag = randomUUID().slice(0, 8);
  return Array.from({ length: count }, (_, index) => `user${index}.${tag}@${domain}`);
}

/** One address no other test uses. */
export function uniqueEmail(domain = 'example.com'): string {
  return `user.${randomUUID().slice(0, 8)}@${domain}`;
}
