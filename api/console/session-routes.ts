import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ConsoleSession } from '../../src/contract/console-session.js';
import { findApiKeyByHash, touchApiKey } from '../../src/accounts/api-key-repository.js';
import { createConsoleSession, deleteConsoleSession } from '../../src/accounts/console-session-repository.js';
import type { Database } from '../../src/db/database.js';
import { hashToken, isWellFormedToken } from '../../src/accounts/api-key-token.js';
import { generateSessionSecret, hashSessionSecret } from '../../src/accounts/console-session-token.js';
import { AppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { signInBodySchema } from './schemas.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';
import {
  consoleSession,
  csrfProtection,
  sameOriginOnly,
  sessionOf,
  SESSION_COOKIE,
  SESSION_COOKIE_PATH,
} from './session.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import { noStore } from '../http/security-headers.js';
import { parseInput } from '../http/validation.js';

/** Where `consoleSessionRouter` is mounted. */
export const CONSOLE_SESSION_PATH = '/console/session';

export interface ConsoleSessionRouterOptions {
  db: Database;
  logger: Logger;
  /** How long a session lasts from its sign-in. */
  ttlMs: number;
  /** Failed sign-ins count against the client address's limit, as failed bearer authentications do. */
  failureLimit?: AuthFailureLimit | undefined;
  /** Per account, once the session is known. */
  rateLimited: readonly RequestHandler[];
  bodyLimit: string;
}

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
 * `POST /console/session` exchanges a `full_access` key for a session cookie (the key itself is
 * neither kept nor sent back); `GET` tells the console's page who is signed in and its CSRF token;
 * `DELETE` signs out.
 */
export function consoleSessionRouter(options: ConsoleSessionRouterOptions): Router {
  const { db, logger, ttlMs, failureLimit } = options;
  const router = Router();
  router.use(noStore, sameOriginOnly);
  const signedIn = [consoleSession({ db, failureLimit }), ...options.rateLimited];

  async function signIn(req: Request, res: Response): Promise<void> {
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
  }

  namedRoute(router, CONSOLE_SESSION_PATH, '/')
    .post(express.json({ limit: options.bodyLimit, strict: true }), signIn)
    .get(...signedIn, (_req, res) => {
      res.json(sessionBody(sessionOf(res)));
    })
    .delete(...signedIn, csrfProtection, async (req, res) => {
      await deleteConsoleSession(db, sessionOf(res).id);
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
      res.status(204).end();
    })
    .all(methodNotAllowed('GET', 'POST', 'DELETE'));

  return router;
}
