import { z } from 'zod';
import { InvalidPayloadError } from './feed-errors.js';

// Unix seconds beyond this (the year 5138) can only be milliseconds, which some payloads carry.
const LARGEST_UNIX_SECONDS = 1e11;

/**
 * A timestamp as ISO 8601 in UTC: from an ISO string, or from Unix time (a number or its text) in
 * seconds, or in milliseconds where it can only be that.
 */
export function isoTimestamp(value: string | number): string | null {
  const unix = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value) ? Number(value) : null;
  const ms = unix === null ? Date.parse(value as string) : unix > LARGEST_UNIX_SECONDS ? unix : unix * 1000;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/** The address of a recipient written as `Name <address>`, or the value as it is. */
export function recipientAddress(value: string): string {
  const angled = /<([^<>]*)>\s*$/.exec(value);
  return (angled?.[1] ?? value).trim();
}

/**
 * The payload's JSON, read with `parse` (JSON.parse unless a provider needs its numbers kept), or an
 * InvalidPayloadError saying it is not JSON.
 */
export function parseJson(text: string, what: string, parse: (text: string) => unknown = JSON.parse): unknown {
  try {
    return parse(text);
  } catch {
    throw new InvalidPayloadError(`Not ${what}: the body is not JSON.`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema's message for a wrong value that says `is required` when the value is missing instead. */
export const requiredOr =
  (problem: string) =>
  (issue: { input: unknown }): string =>
    issue.input === undefined ? 'is required' : problem;

/**
 * A timestamp field of a payload, read as `isoTimestamp` reads it into the event's `occurred_at`;
 * `problem` is what the error says when the value is not one.
 */
export function timestampField(problem: string) {
  return z.union([z.string(), z.number()], { error: requiredOr(problem) }).transform((value, context) => {
    const iso = isoTimestamp(value);
    if (iso !== null) return iso;
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });
}

/** The payload read through a provider's schema, or an InvalidPayloadError naming the first field at fault. */
export function parsePayload<Schema extends z.ZodType>(
  schema: Schema,
  data: unknown,
  what: string,
  /** Where `data` is in the payload, for naming a field: `[2]` for a batch's third event. */
  at: readonly PropertyKey[] = [],
): z.output<Schema> {
  const result = schema.safeParse(data, {
    error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined),
  });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [...at, ...(issue?.path ?? [])]
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : `${index > 0 ? '.' : ''}${String(segment)}`,
    )
    .join('');
  const field = path ? `\`${path}\` ` : '';
  throw new InvalidPayloadError(`Not ${what}: ${field}${issue?.message ?? 'is invalid'}.`);
}
