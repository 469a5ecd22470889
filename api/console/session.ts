import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { findConsoleSession, type ConsoleSession } from '../../src/accounts/console-session-repository.js';
import type { Database } from '../../src/db/database.js';
import { hashSessionSecret, isWellFormedSessionSecret, sameSecret } from '../../src/accounts/console-session-token.js';
import { AppError } from '../../src/errors.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';
import type { Caller } from '../http/authenticate.js';

/**
 * The session cookie's name. Not `__Host-`: that prefix requires `Path=/`, and the cookie is meant
 * for `/console` only, never sent along with the bearer API's requests.
 */
export const SESSION_COOKIE = 'sl_console_session';

/** Where the cookie is sent: the console's pages, its session and its API. */
export const SESSION_COOKIE_PATH = '/console';

export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie of the `Cookie` header, undecoded (the service sets only base64url values). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The session that `consoleSession` attached to this response. */
export function sessionOf(res: Response): ConsoleSession {
  return res.locals['consoleSession'] as ConsoleSession;
}

export interface ConsoleSessionOptions {
  db: Database;
  /** Cookies that name no session count as failed authentications of the client address. */
  failureLimit?: AuthFailureLimit | undefined;
}

/**
 * Resolves the session cookie to its session, and sets `res.locals.caller` as `authenticate` does
 * for a key, so that every route works unchanged and a change is attributed to the key that signed
 * in. Looked up on every request, with its key: an expired session, a signed-out one and one whose
 * key was revoked stop working at once. A cookie that cannot be one this service set is refused
 * unread; one that is well formed but unknown counts against the client address's failure limit.
 */
export function consoleSession({ db, failureLimit }: ConsoleSessionOptions): RequestHandler {
  return async function resolveSession(req: Request, res: Response, next: NextFunction): Promise<void> {
    const token = readCookie(req, SESSION_COOKIE);
    if (token === undefined) throw new AppError('invalid_session');
    if (!isWellFormedSessionSecret(token)) {
      failureLimit?.recordFailure(req);
      throw new AppError('invalid_session');
    }
    if (failureLimit) await failureLimit.check(req);
    const session = await findConsoleSession(db, hashSessionSecret(token));
    if (session === null) {
      failureLimit?.recordFailure(req);
      throw new AppError('invalid_session');
    }
    const caller: Caller = { accountId: session.accountId, keyId: session.apiKeyId, via: 'console' };
    res.locals['caller'] = caller;
    res.locals['consoleSession'] = session;
    next();
  };
}

/**
 * After `consoleSession`: a request that may change something must carry the session's CSRF
 * token in `X-CSRF-Token`, which only the console's own page can read (from `GET /console/session`).
 */
export const csrfProtection: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const presented = req.get(CSRF_HEADER);
  if (presented === undefined || !sameSecret(presented, sessionOf(res).csrfToken)) {
    throw new AppError('invalid_csrf_token');
  }
  next();
};
