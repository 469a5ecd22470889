import type { NextFunction, Request, Response } from 'express';

const PATTERN = Symbol('routePattern');

type Tracked = Request & { [PATTERN]?: string };

/**
 * Remembers the pattern of the route that handled a request (`/suppressions/:suppression`), never
 * its concrete path, which may hold an email address. The router sets `req.route` while the nested
 * router's `baseUrl` is still in place; by the time an error reaches the app's handler the baseUrl
 * has been restored, so the pattern is captured at that moment.
 */
export function trackRoutePattern(req: Request, _res: Response, next: NextFunction): void {
  let route: unknown = req.route;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') {
        const joined = `${req.baseUrl}${path}`;
        (req as Tracked)[PATTERN] = joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
      }
    },
  });
  next();
}

/** The matched route pattern, or `unmatched` (404s, and requests not routed to any handler). */
export function routePatternOf(req: Request): string {
  return (req as Tracked)[PATTERN] ?? 'unmatched';
}
