import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorSchema } from './schemas.js';
import { errorExample } from './examples.js';

/** The errors of DESIGN.md's table, by status; each route picks those that apply to it. */
const ERRORS: Record<number, { description: string; cases: Array<[name: string, message: string]> }> = {
  400: {
    description: 'Invalid `Idempotency-Key`.',
    cases: [['invalid_idempotency_key', 'The Idempotency-Key header must be 1 to 256 characters.']],
  },
  401: {
    description: 'No usable API key.',
    cases: [
      ['missing_api_key', 'Missing API key in the authorization header. Use `Authorization: Bearer <API_KEY>`.'],
      ['restricted_api_key', 'This API key is restricted to sending emails. Use a key with full access.'],
    ],
  },
  403: { description: 'Unknown or revoked API key.', cases: [['invalid_api_key', 'API key is invalid.']] },
  404: {
    description: 'Unknown suppression (or one of another account).',
    cases: [['not_found', 'Suppression not found.']],
  },
  405: {
    description: 'Known path, wrong method; the `Allow` header lists the methods.',
    cases: [['method_not_allowed', 'Method PUT is not allowed here. Allowed: GET, POST.']],
  },
  409: {
    description: 'Idempotency conflict.',
    cases: [
      ['invalid_idempotent_request', 'This Idempotency-Key was already used with a different request body.'],
      ['concurrent_idempotent_requests', 'A request with this Idempotency-Key is still being processed.'],
    ],
  },
  413: {
    description: 'Body over the limit (default 1 MB).',
    cases: [['payload_too_large', 'The request body is larger than the limit of 1mb.']],
  },
  422: {
    description: 'Invalid query, path or body.',
    cases: [['validation_error', '`emails[2]` must be a valid email address.']],
  },
  429: {
    description: "Over the account's rate; `retry-after` says when to retry.",
    cases: [['rate_limit_exceeded', 'Too many requests. Retry after 1 second.']],
  },
  500: {
    description: 'Unexpected error; no internals in the body.',
    cases: [['internal_server_error', 'An unexpected error occurred.']],
  },
  503: {
    description: 'PostgreSQL or Redis unreachable.',
    cases: [['service_unavailable', 'The service is temporarily unavailable. Try again shortly.']],
  },
};

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 503;

export function errorResponses(...statuses: ErrorStatus[]): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  for (const status of statuses) {
    const error = ERRORS[status];
    if (!error) throw new Error(`No error documented for ${status}`);
    const examples: Record<string, { value: unknown }> = {};
    for (const [name, message] of error.cases) examples[name] = { value: errorExample(status, name, message) };
    responses[String(status)] = {
      description: error.description,
      ...(status === 429
        ? { headers: { 'retry-after': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
        : {}),
      ...(status === 405
        ? { headers: { allow: { description: 'Allowed methods.', schema: { type: 'string' } } } }
        : {}),
      content: { 'application/json': { schema: errorSchema, examples } },
    };
  }
  return responses;
}

/** Errors every authenticated `/suppressions` route can answer with. */
export const AUTHENTICATED_ERRORS: ErrorStatus[] = [401, 403, 405, 422, 429, 500, 503];
