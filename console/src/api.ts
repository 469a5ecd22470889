/** The API's error shape, and what the console shows when a request fails. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Suppression {
  object: 'suppression';
  id: string;
  email: string;
  origin: Origin;
  source_id: string | null;
  created_at: string;
}

export const ORIGINS = ['bounce', 'complaint', 'manual'] as const;
export type Origin = (typeof ORIGINS)[number];

export interface Page<T> {
  object: 'list';
  has_more: boolean;
  data: T[];
}

export interface AuditRecord {
  event_id: string;
  type: 'bounce' | 'complaint' | 'removal';
  outcome: string;
  email: string;
  source_id: string | null;
  bounce: {
    type: string;
    sub_type: string;
    status: string | null;
    reply_code?: string | null;
    diagnostic: string | null;
    provider?: string | null;
    remote_mta?: string | null;
    /** What the classifier decided; null (or absent) on records written before it existed. */
    classification?: BounceClassification | null;
  } | null;
  complaint: { feedback_type: string | null } | null;
  provider_message_id: string | null;
  removed_by_key_id: string | null;
  removal_reason: string | null;
  suppression_id: string | null;
  occurred_at: string | null;
  received_at: string;
}

export interface BounceClassification {
  category: string;
  reason: string;
  rule: string;
  version: string;
}

export const BOUNCE_CATEGORIES = [
  'invalid_address',
  'mailbox_unavailable',
  'sender_blocked',
  'delivery_failure',
  'auto_reply',
  'unknown',
] as const;
export type BounceCategory = (typeof BOUNCE_CATEGORIES)[number];

export const BOUNCE_ACTIONS = ['suppress', 'count', 'record'] as const;
export type BounceAction = (typeof BOUNCE_ACTIONS)[number];

/** `GET /console/api/settings/suppressions`: the account's policy. */
export interface SuppressionSettings {
  object: 'suppression_settings';
  bounce_actions: Record<BounceCategory, BounceAction>;
  soft_bounce_threshold: number | null;
  soft_bounce_window_days: number;
  expire_after_days: Record<Origin, number | null>;
}

/** `GET /console/api/bounces/summary`: an account's bounces of a period, by category, reason and day. */
export interface BounceSummary {
  object: 'bounce_summary';
  since: string;
  until: string;
  total: number;
  by_category: Record<BounceCategory, number>;
  by_reason: Record<string, number>;
  sender_blocked_domains: { domain: string; count: number }[];
  by_day: { date: string; counts: Record<BounceCategory, number> }[];
}

export interface ConsoleSession {
  object: 'console_session';
  account: { id: string; name: string };
  csrf_token: string;
  expires_at: string;
}

export const API = '/console/api/suppressions';
export const SETTINGS_API = '/console/api/settings/suppressions';
export const BOUNCES_API = '/console/api/bounces';

let csrfToken: string | null = null;
let onSessionEnded: (message: string) => void = () => undefined;

/** The token that every request that changes something carries; set at sign-in and on load. */
export function useCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** What happens when the API answers 401: the page goes back to sign-in with a message. */
export function whenSessionEnds(handler: (message: string) => void): void {
  onSessionEnded = handler;
}

/** Tells the page that the session has ended (a 401 of any request). */
export function reportSessionEnded(message: string): void {
  onSessionEnded(message);
}

export function csrfHeaders(): Record<string, string> {
  return csrfToken === null ? {} : { 'X-CSRF-Token': csrfToken };
}

/** The error of a failed answer, in words: the API's own message when it sent one. */
export function errorOf(status: number, statusText: string, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { name?: unknown; message?: unknown };
    if (typeof body.message === 'string' && typeof body.name === 'string') {
      return new ApiError(status, body.name, body.message);
    }
  } catch {
    // Not the API's JSON (a proxy's page, say): described by its status below.
  }
  return new ApiError(status, 'unexpected_answer', `The service answered ${status} ${statusText}. Try again shortly.`);
}

export const UNREACHABLE = 'The service could not be reached. Check the connection and try again.';

/** One request to the console's API or session, on this origin, with the cookie. */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') Object.assign(headers, csrfHeaders());
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'unreachable', UNREACHABLE);
  }
  const text = await response.text();
  if (!response.ok) {
    const error = errorOf(response.status, response.statusText, text);
    if (response.status === 401 && path !== '/console/session') reportSessionEnded(error.message);
    throw error;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}
