import type { Actor } from '../../src/domain/actor.js';
import type { NextFunction, Request, Response } from 'express';
import { findApiKeyByHash, touchApiKey, type ApiKeyCredentials } from '../../src/accounts/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import { hashToken, isWellFormedToken } from '../../src/accounts/api-key-token.js';
import { AppError, isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { AuthFailureLimit } from './auth-failure-limit.js';
import { ExpiringCache } from './expiring-cache.js';

export interface Caller {
  accountId: string;
  keyId: string;
  /** How the key was presented: as a bearer token, or through a console session made with it. */
  via: 'api_key' | 'console';
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** Keys remembered at once. Only well-formed tokens are cached, so this bounds the cache's memory too. */
const MAX_CACHED_KEYS = 10_000;

/** The caller that `authenticate` attached to this response. */
export function callerOf(res: Response): Caller {
  return res.locals['caller'] as Caller;
}

/** The caller as the history names the maker of a record: its way in, and its key. */
export function actorOf(res: Response): Actor {
  const { via, keyId } = callerOf(res);
  return { type: via, id: keyId };
}

/** The account the caller speaks for. */
export function accountOf(res: Response): string {
  return callerOf(res).accountId;
}

interface CachedKey {
  credentials: ApiKeyCredentials | null;
  fetchedAt: number;
}

export interface AuthenticateOptions {
  db: Database;
  logger: Logger;
  /** How long a lookup (found or not) is trusted; a revoked key stops working within this time. */
  cacheTtlMs: number;
  /** Failed authentications per client address, checked before any lookup; none when absent. */
  failureLimit?: AuthFailureLimit | undefined;
  /** The requests a `sending_access` key may make; every other needs `full_access`. None when absent. */
  sendingAccess?: ((req: Request) => boolean) | undefined;
}

/**
 * Resolves `Authorization: Bearer <token>` to an account. Lookups (found or not) are cached for
 * `cacheTtlMs` so a request costs one database round trip, not two; a revoked key stops working
 * when its entry expires. A key in steady use is looked up again in the background once its entry
 * is half way to expiry, so its requests never wait on that lookup. The cache is keyed by the token
 * itself, which is in this process's memory for the request anyway, so that a hit costs no
 * hashing; only the database ever sees the digest.
 *
 * Any request the cache does not admit (no key, an unknown, revoked or made-up key, or a key not
 * seen lately) is first checked against `failureLimit`, and counts against it when it fails; a
 * token that cannot be one this service issued is refused without a lookup and is not cached.
 */
export function authenticate(options: AuthenticateOptions) {
  const { db, logger, cacheTtlMs, failureLimit, sendingAccess } = options;
  const cache = new ExpiringCache<string, CachedKey>(cacheTtlMs, MAX_CACHED_KEYS);
  const refreshing = new Set<string>();

  async function lookup(token: string): Promise<ApiKeyCredentials | null> {
    const fetchedAt = Date.now();
    const credentials = await findApiKeyByHash(db, hashToken(token));
    cache.set(token, { credentials, fetchedAt });
    if (credentials && !credentials.revoked) {
      touchApiKey(db, credentials.keyId).catch((error: unknown) =>
        logger.warn({ err: error }, 'could not record key use'),
      );
    }
    return credentials;
  }

  function refreshInBackground(token: string): void {
    if (refreshing.has(token)) return;
    refreshing.add(token);
    lookup(token)
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'could not refresh an API key; the cached entry stands until it expires'),
      )
      .finally(() => refreshing.delete(token));
  }

  function admit(credentials: ApiKeyCredentials | null, req: Request, res: Response, next: NextFunction): void {
    if (!credentials || credentials.revoked) throw new AppError('invalid_api_key');
    if (credentials.permission !== 'full_access' && !(sendingAccess?.(req) ?? false)) {
      throw new AppError('restricted_api_key');
    }
    const caller: Caller = { accountId: credentials.accountId, keyId: credentials.keyId, via: 'api_key' };
    res.locals['caller'] = caller;
    next();
  }

  async function credentialsOf(token: string | undefined, cached: CachedKey | undefined) {
    if (token === undefined) throw new AppError('missing_api_key');
    if (cached !== undefined) return cached.credentials;
    if (!isWellFormedToken(token)) throw new AppError('invalid_api_key');
    return lookup(token);
  }

  async function admitUncached(
    token: string | undefined,
    cached: CachedKey | undefined,
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    if (failureLimit) await failureLimit.check(req);
    try {
      admit(await credentialsOf(token, cached), req, res, next);
    } catch (error) {
      if (isAppError(error, 'missing_api_key') || isAppError(error, 'invalid_api_key')) {
        failureLimit?.recordFailure(req);
      }
      throw error;
    }
  }

  // Synchronous for a cached, usable key: most requests never wait on a promise here.
  return function authenticateRequest(req: Request, res: Response, next: NextFunction): Promise<void> | void {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    const cached = token === undefined ? undefined : cache.get(token);
    if (token !== undefined && cached?.credentials && !cached.credentials.revoked) {
      if (Date.now() - cached.fetchedAt >= cacheTtlMs / 2) refreshInBackground(token);
      admit(cached.credentials, req, res, next);
      return;
    }
    return admitUncached(token, cached, req, res, next);
  };
}
