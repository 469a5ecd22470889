import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../src/logger.js';
import { routePatternOf } from './route-pattern.js';

/** A caller's request id is kept when it is 1-200 safe characters (no spaces, quotes or `@`). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._~:+/=-]{1,200}$/;

/** Probes and scrapes would drown the log. */
const QUIET_PATHS = new Set(['/health', '/ready', '/metrics']);

/** The API's own query parameters, whose values say nothing secret; any other value is not logged. */
const LOGGED_QUERY_VALUES = new Set(['limit', 'after', 'before', 'origin']);
/** A parameter name short and plain enough to be a name, not a value passed without one. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,32}$/;

/**
 * The query string as logged: a value is kept only for the API's own parameters, so that a token or
 * an address put in a query string never reaches the log. Undefined without a query. The path itself
 * is never logged, only its route pattern: paths hold addresses, ids and unsubscribe tokens.
 */
export function loggableQuery(url: string): string | undefined {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return undefined;
  return url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (LOGGED_QUERY_VALUES.has(name)) return pair;
      return PLAIN_NAME.test(name) ? `${name}=[redacted]` : '[redacted]';
    })
    .join('&');
}

export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * One log line per request with its id (taken from `x-request-id` or made, and echoed). The line
 * carries the route pattern and the query with its values redacted (`loggableQuery`), never the
 * path; headers are not logged, and the logger redacts authorization, cookies and tokens wherever
 * they appear.
 */
export function requestLogging(logger: Logger): RequestHandler {
  // Below info no request line is ever written: keep the request id, skip the per-request logger.
  if (!logger.isLevelEnabled('info')) {
    return (req, res, next) => {
      requestIdFor(req, res);
      next();
    };
  }
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    // The route is known only once the request was routed, so it joins the completion line.
    customSuccessObject: (req, _res, value: object) => ({ ...value, route: routePatternOf(req as Request) }),
    customErrorObject: (req, _res, _error, value: object) => ({ ...value, route: routePatternOf(req as Request) }),
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        query: loggableQuery(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
