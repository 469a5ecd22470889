import { createHash } from 'node:crypto';
import { v5 } from 'uuid';
import { z } from 'zod';
import { isUuid } from '../domain/ids.js';
import type { SuppressionEventInput } from '../events/event-schema.js';

export const PROVIDERS = ['ses', 'sendgrid', 'postmark', 'mailgun', 'resend'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface MappingContext {
  /** The feed's account: every event is this account's. */
  accountId: string;
  /** The tag or metadata key whose value, when it is a UUID, becomes the event's `source_id` (`FEEDS_EMAIL_ID_TAG`). */
  emailIdTag: string;
}

/** What the provider's envelope says about one request, where it has an envelope. */
export interface Delivery {
  /** The envelope's message id: SNS's `MessageId` for SES, the Svix message id for Resend. */
  id?: string;
}

/**
 * Turns the text of one verified provider payload (for SES, the SNS message's `Message`) into events.
 * Throws InvalidPayloadError when the text is not what the provider sends.
 */
export type FeedMapper = (text: string, delivery: Delivery, context: MappingContext) => MappedPayload;

/** What one verified request from a provider turns into. */
export interface MappedPayload {
  /** The events to queue, in the provider's order, one per recipient. */
  events: SuppressionEventInput[];
  /**
   * The provider's own names of the events that neither suppress nor record (`delivered`, `open`,
   * `Delivery`...), one per event: acknowledged and counted, nothing more.
   */
  ignored: string[];
}

/** The request is authentic but is not what the provider sends; the message names what is wrong. */
export class InvalidPayloadError extends Error {
  override name = 'InvalidPayloadError';
}

const EVENT_ID_LIMIT = 255;

/**
 * The event id of one recipient of one provider event: a provider's retry carries the same ids, so it
 * is the same event however often it arrives. An id too long for the audit trail keeps the provider's
 * part and a digest of the address.
 */
export function feedEventId(provider: Provider, providerEventId: string, email: string): string {
  const id = `${provider}:${providerEventId}:${email.trim().toLowerCase()}`;
  if (id.length <= EVENT_ID_LIMIT) return id;
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const head = `${provider}:${providerEventId}`.slice(0, EVENT_ID_LIMIT - digest.length - 1);
  return `${head}:${digest}`;
}

// One namespace per provider, so equal message ids of two providers never map to the same source id.
const SOURCE_ID_NAMESPACES: Record<Provider, string> = {
  ses: '1b0d6a5e-3f57-4c2e-9a51-6f1c2b8e4d01',
  sendgrid: '6c2f8e14-9b0a-4d6e-8f3c-2a7d5e9b1c02',
  postmark: 'a94e3d27-5c18-4b7f-b2e6-8d0f1a3c5e03',
  mailgun: '3e7b1c59-d2a4-4f08-9c6e-5b8a0d2f7e04',
  resend: 'd58a2f6c-1e9b-4a37-8d05-c4f6e2b9a105',
};

/**
 * The event's `source_id`, which must be a UUID: the value of the message's email-id tag when it
 * is one, else the provider's message id when it is one, else a UUIDv5 of the provider's message id,
 * so the same message always has the same source id.
 */
export function feedSourceId(provider: Provider, tagValue: unknown, messageId: string): string {
  if (typeof tagValue === 'string' && isUuid(tagValue.trim())) return tagValue.trim().toLowerCase();
  if (isUuid(messageId)) return messageId.toLowerCase();
  return v5(messageId, SOURCE_ID_NAMESPACES[provider]);
}

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
