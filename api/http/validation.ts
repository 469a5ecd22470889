import type { z } from 'zod';
import { AppError, invalidField } from '../../src/errors.js';

function describePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

/** Parses untrusted input, or throws a 422 whose message names the offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new AppError('validation_error', 'The request is invalid.');
  const where = describePath(issue.path);
  throw where ? invalidField(where, issue.message) : new AppError('validation_error', issue.message);
}
