import { emailProblem, normalizeEmail } from '../../src/domain/email.js';
import { partitionEmails } from '../../src/domain/email-batch.js';
import { isUuid } from '../../src/domain/ids.js';
import type { Request } from 'express';
import { errorMessage } from '../../src/error-codes.js';
import { AppError, invalidField } from '../../src/errors.js';
import type { Removal } from '../../src/suppressions/suppression-removal.js';
import { pathParameter } from '../http/endpoints.js';

/** Normalised, distinct addresses; the first invalid one rejects the whole request. */
export function requireEmails(raw: readonly string[], field: string): string[] {
  const { valid, invalid } = partitionEmails(raw);
  const first = invalid[0];
  if (first) throw invalidField(`${field}[${first.index}]`, `${first.reason}.`);
  return valid;
}

export function requireEmail(raw: string, field: string): string {
  const email = normalizeEmail(raw);
  const problem = emailProblem(email);
  if (problem !== null) throw invalidField(field, `${problem}.`);
  return email;
}

export type PathTarget = { id: string } | { email: string };

/** `{suppression}` is an id when it looks like a UUID, otherwise an email address. */
export function pathTarget(req: Request): PathTarget {
  const value = pathParameter(req, 'suppression');
  if (isUuid(value)) return { id: value.toLowerCase() };
  const email = normalizeEmail(value);
  if (emailProblem(email) !== null) {
    throw invalidField('suppression', 'must be a suppression id or an email address.');
  }
  return { email };
}

/**
 * The ids a removal removed, or the 409 naming the complaint entries that refused it, and how to
 * force: through the query of a DELETE, or the body of a batch.
 */
export function removedOrRefused(removal: Removal, via: 'query' | 'body'): string[] {
  if ('removed' in removal) return removal.removed;
  throw new AppError('complaint_protected', errorMessage('complaint_protected', { entries: removal.refused, via }));
}
