import type { Express, Request } from 'express';

const ROUTE = Symbol('route');
const PATTERN = Symbol('routePattern');

type Tracked = Request & { [ROUTE]?: unknown; [PATTERN]?: string };

/**
 * Makes every request of `app` remember the pattern of the route that handled it
 * (`/suppressions/:suppression`), never its concrete path, which may hold an email address. The
 * router sets `req.route` while the nested router's `baseUrl` is still in place; by the time an
 * error reaches the app's handler the baseUrl has been restored, so the pattern is captured at that
 * moment, by an accessor on the app's request prototype (defined once, not per request).
 */
export function trackRoutePatterns(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Tracked): unknown {
      return this[ROUTE];
    },
    set(this: Tracked, value: unknown) {
      this[ROUTE] = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') {
        const joined = `${this.baseUrl}${path}`;
        this[PATTERN] = joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
      }
    },
  });
}

/** The matched route pattern, or `unmatched` (404s, and requests not routed to any handler). */
export function routePatternOf(req: Request): string {
  return (req as Tracked)[PATTERN] ?? 'unmatched';
}
