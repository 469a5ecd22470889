import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ERROR_CODES, exampleMessage, type ErrorCode } from '../../src/error-codes.js';
import { rateLimitHeaders } from './headers.js';
import { errorSchema } from '../../src/contract/error.js';

export const JSON_TYPE = 'application/json';

/** The security of every operation that takes an API key. */
export const BEARER_SECURITY = [{ bearerAuth: [] }];

/** A success answer of an operation that takes an API key: its schema and example, and the rate-limit headers. */
export function jsonAnswer(description: string, schema: z.ZodType, example: unknown) {
  return { description, headers: rateLimitHeaders, content: { [JSON_TYPE]: { schema, example } } };
}

/**
 * The documented error responses of a route, from the table of error codes: one response per
 * status, with one example per code, each showing the code's message as the API sends it.
 */
export function errorResponses(...codes: ErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, ofStatus] of byStatus) {
    const examples: Record<string, { value: unknown }> = {};
    for (const code of ofStatus) {
      examples[code] = { value: { statusCode: status, name: code, message: exampleMessage(code) } };
    }
    responses[String(status)] = {
      description: ofStatus.map((code) => ERROR_CODES[code].when).join(' '),
      ...(status === 429
        ? { headers: { 'retry-after': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
        : {}),
      ...(status === 405
        ? { headers: { allow: { description: 'Allowed methods.', schema: { type: 'string' } } } }
        : {}),
      content: { [JSON_TYPE]: { schema: errorSchema, examples } },
    };
  }
  return responses;
}

/** Errors every authenticated `/suppressions` route can answer with. */
export const AUTHENTICATED_ERRORS: ErrorCode[] = [
  'missing_api_key',
  'restricted_api_key',
  'invalid_api_key',
  'method_not_allowed',
  'validation_error',
  'rate_limit_exceeded',
  'internal_server_error',
  'service_unavailable',
];

/** Errors a POST with a body (and perhaps an `Idempotency-Key`) can answer with as well. */
export const BODY_ERRORS: ErrorCode[] = [
  'invalid_idempotency_key',
  'invalid_idempotent_request',
  'concurrent_idempotent_requests',
  'payload_too_large',
];

/** The error responses of an operation that takes an API key: its own codes, then those of every such operation. */
export function authenticatedErrors(...codes: ErrorCode[]): Record<string, ResponseConfig> {
  return errorResponses(...codes, ...AUTHENTICATED_ERRORS);
}
