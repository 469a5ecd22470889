import type { Request } from 'express';
import { findApiKeyByHash, touchApiKey } from '../../src/accounts/api-key-repository.js';
import { hashToken, isWellFormedToken } from '../../src/accounts/api-key-token.js';
import { createConsoleSession, deleteConsoleSession } from '../../src/accounts/console-session-repository.js';
import { generateSessionSecret, hashSessionSecret } from '../../src/accounts/console-session-token.js';
import { consoleSessionSchema, type ConsoleSession } from '../../src/contract/console-session.js';
import type { Database } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';
import { signInBodySchema } from './schemas.js';
import { csrfProtection, sessionOf, SESSION_COOKIE, SESSION_COOKIE_PATH } from './session.js';

/** What the console session's endpoints talk to. */
export interface ConsoleSessionDeps {
  db: Database;
  logger: Logger;
  /** How long a session lasts from its sign-in. */
  ttlMs: number;
  /** Failed sign-ins count against the client address's limit, as failed bearer authentications do. */
  failureLimit?: AuthFailureLimit | undefined;
}

const tags = ['Console'];

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

function cookieOptions(req: Request) {
  return { path: SESSION_COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure: req.secure };
}

function sessionBody(session: {
  accountId: string;
  accountName: string;
  csrfToken: string;
  expiresAt: Date;
}): ConsoleSession {
  return {
    object: 'console_session',
    account: { id: session.accountId, name: session.accountName },
    csrf_token: session.csrfToken,
    expires_at: session.expiresAt.toISOString(),
  };
}

/**
 * Exchanges a `full_access` key for a session cookie; the key itself is neither kept nor sent back.
 */
export const signInEndpoint: Endpoint<ConsoleSessionDeps> = {
  method: 'post',
  path: '/',
  access: 'public',
  body: 'json',
  doc: {
    operationId: 'signInToConsole',
    tags,
    summary: 'Sign in to the console with an API key',
    description:
      'Exchanges a `full_access` key for a session: the answer sets the `HttpOnly`, `SameSite=Strict` cookie `sl_console_session` (`Path=/console`, `Secure` over HTTPS) and carries the CSRF token. The key is not kept. Failed sign-ins count against the client address’s limit of failed authentications. A request whose `Origin` is another origin’s is refused.',
    request: {
      body: jsonRequest(signInBodySchema, {
        example: { api_key: 'sl_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE' },
      }),
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
  handler:
    ({ db, logger, ttlMs, failureLimit }) =>
    async (req, res) => {
      const { api_key: token } = parseInput(signInBodySchema, req.body);
      if (failureLimit) await failureLimit.check(req);
      const credentials = isWellFormedToken(token) ? await findApiKeyByHash(db, hashToken(token)) : null;
      if (!credentials || credentials.revoked) {
        failureLimit?.recordFailure(req);
        throw new AppError('invalid_api_key');
      }
      if (credentials.permission !== 'full_access') throw new AppError('restricted_api_key');
      touchApiKey(db, credentials.keyId).catch((error: unknown) =>
        logger.warn({ err: error }, 'could not record key use'),
      );
      const cookie = generateSessionSecret();
      const session = await createConsoleSession(db, {
        tokenHash: hashSessionSecret(cookie),
        accountId: credentials.accountId,
        apiKeyId: credentials.keyId,
        csrfToken: generateSessionSecret(),
        ttlMs,
      });
      res.cookie(SESSION_COOKIE, cookie, { ...cookieOptions(req), maxAge: ttlMs });
      res.status(201).json(sessionBody(session));
    },
};

/** Who is signed in and the CSRF token: what the console's page reads when it loads. */
export const getSessionEndpoint: Endpoint<ConsoleSessionDeps> = {
  method: 'get',
  path: '/',
  access: 'session',
  doc: {
    operationId: 'getConsoleSession',
    tags,
    summary: 'The console session of the cookie',
    description: 'Who is signed in, until when, and the CSRF token: what the console reads when its page is loaded.',
    responses: { 200: sessionAnswer('The session.'), ...errorResponses(...SESSION_ERRORS) },
  },
  handler: () => (_req, res) => {
    res.json(sessionBody(sessionOf(res)));
  },
};

export const signOutEndpoint: Endpoint<ConsoleSessionDeps> = {
  method: 'delete',
  path: '/',
  access: 'session',
  doc: {
    operationId: 'signOutOfConsole',
    tags,
    summary: 'Sign out of the console',
    description: 'Ends the session (its cookie is refused from then on) and clears the cookie. Needs `X-CSRF-Token`.',
    responses: { 204: { description: 'Signed out.' }, ...errorResponses(...SESSION_ERRORS) },
  },
  handler: ({ db }) => [
    csrfProtection,
    async (req, res) => {
      await deleteConsoleSession(db, sessionOf(res).id);
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
      res.status(204).end();
    },
  ],
};
