import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { consoleSessionSchema } from '../../src/contract/console-session.js';
import { signInBodySchema } from './schemas.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';

const tags = ['Console'];
const consoleSecurity = [{ consoleSession: [] }];

const exampleSession = {
  object: 'console_session',
  account: { id: '01a1ffcd-4215-740e-b6ab-24a2faf4d728', name: 'acme' },
  csrf_token: 'k3Jx0v1m2b9QeR7tYhUw4sLpZc8dNfGa6oHiXyEjT5A',
  expires_at: '2026-11-23T17:30:06.685Z',
};

const sessionAnswer = (description: string) => ({
  description,
  content: { [JSON_TYPE]: { schema: consoleSessionSchema, example: exampleSession } },
});

/** Errors of every request that the session cookie admits. */
const SESSION_ERRORS = [
  'invalid_session',
  'invalid_csrf_token',
  'method_not_allowed',
  'rate_limit_exceeded',
  'internal_server_error',
  'service_unavailable',
] as const;

/**
 * The console's session (docs/console.md). The console's pages reach the suppressions endpoints at
 * `/console/api/suppressions/...`, the same operations as `/suppressions/...` with the session
 * cookie and `X-CSRF-Token` in place of a key; they are documented once, under `/suppressions`.
 */
export const consoleRoutes: RouteConfig[] = [
  {
    method: 'post',
    path: '/console/session',
    operationId: 'signInToConsole',
    tags,
    summary: 'Sign in to the console with an API key',
    description:
      'Exchanges a `full_access` key for a session: the answer sets the `HttpOnly`, `SameSite=Strict` cookie `sl_console_session` (`Path=/console`, `Secure` over HTTPS) and carries the CSRF token. The key is not kept. Failed sign-ins count against the client address’s limit of failed authentications. A request whose `Origin` is another origin’s is refused.',
    security: [],
    request: {
      body: {
        required: true,
        content: {
          [JSON_TYPE]: {
            schema: signInBodySchema,
            example: { api_key: 'sl_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE' },
          },
        },
      },
    },
    responses: {
      201: {
        ...sessionAnswer('Signed in.'),
        headers: {
          'set-cookie': {
            description: 'The session cookie.',
            schema: { type: 'string' },
          },
        },
      },
      ...errorResponses(
        'restricted_api_key',
        'invalid_api_key',
        'invalid_csrf_token',
        'method_not_allowed',
        'payload_too_large',
        'validation_error',
        'rate_limit_exceeded',
        'internal_server_error',
        'service_unavailable',
      ),
    },
  },
  {
    method: 'get',
    path: '/console/session',
    operationId: 'getConsoleSession',
    tags,
    summary: 'The console session of the cookie',
    description: 'Who is signed in, until when, and the CSRF token: what the console reads when its page is loaded.',
    security: consoleSecurity,
    responses: { 200: sessionAnswer('The session.'), ...errorResponses(...SESSION_ERRORS) },
  },
  {
    method: 'delete',
    path: '/console/session',
    operationId: 'signOutOfConsole',
    tags,
    summary: 'Sign out of the console',
    description: 'Ends the session (its cookie is refused from then on) and clears the cookie. Needs `X-CSRF-Token`.',
    security: consoleSecurity,
    responses: { 204: { description: 'Signed out.' }, ...errorResponses(...SESSION_ERRORS) },
  },
];
