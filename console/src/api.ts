// The answers' types come from the service's contract, types only, and the lists the pages iterate
// over from its shared words (src/domain/, which imports nothing): the console reaches the service
// over HTTP, and lint allows it nothing else of src/.
import type {
  AllowlistPage,
  AllowlistRuleAdded,
  AllowlistRuleResource as AllowlistRule,
} from '../../src/contract/allowlist.js';
import type { AuditRecordPage, AuditRecordResource as AuditRecord } from '../../src/contract/audit-record.js';
import type { BounceSummary, ReclassificationResource as Reclassification } from '../../src/contract/bounces.js';
import type { SuppressionCheck } from '../../src/contract/check.js';
import type { ConsoleSession } from '../../src/contract/console-session.js';
import type { ImportResource } from '../../src/contract/imports.js';
import type {
  ReclassificationEntryPage,
  ReclassificationEntryResource as ReclassificationEntry,
} from '../../src/contract/reclassification-entries.js';
import type { SettingsResource as SuppressionSettings } from '../../src/contract/settings.js';
import type { SuppressionPage, SuppressionResource as Suppression } from '../../src/contract/suppression.js';

export {
  BOUNCE_ACTIONS,
  BOUNCE_CATEGORIES,
  BOUNCE_REASONS,
  DEFAULT_BOUNCE_ACTIONS,
  type BounceReason,
} from '../../src/domain/bounce-categories.js';
export { GIVEN_ORIGINS, ORIGINS, type GivenOrigin } from '../../src/domain/origins.js';

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

export type {
  AllowlistPage,
  AllowlistRule,
  AllowlistRuleAdded,
  AuditRecord,
  AuditRecordPage,
  BounceSummary,
  ConsoleSession,
  ImportResource,
  Reclassification,
  ReclassificationEntry,
  ReclassificationEntryPage,
  Suppression,
  SuppressionCheck,
  SuppressionPage,
  SuppressionSettings,
};

export type Origin = Suppression['origin'];
export type BounceCategory = keyof SuppressionSettings['bounce_actions'];
export type BounceAction = SuppressionSettings['bounce_actions'][BounceCategory];

export const API = '/console/api/suppressions';
export const SETTINGS_API = '/console/api/settings/suppressions';
export const BOUNCES_API = '/console/api/bounces';
export const ALLOWLIST_API = '/console/api/allowlist';

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
