import type { Request, RequestHandler } from 'express';
import type { IRoute } from 'express-serve-static-core';

const patterns = new WeakMap<object, string>();
const MOUNT = Symbol('mountPattern');

type Marked = Request & { [MOUNT]?: string };

function joinPattern(mountPath: string, path: string): string {
  if (path === '/') return mountPath || '/';
  return `${mountPath}${path}`;
}

/**
 * `router.route(path)` that also remembers the route's full pattern (`mountPath` + `path`, such as
 * `/suppressions/:suppression`), so that metrics and logs name the route that answered a request,
 * never its concrete path, which may hold an email address. The pattern is worked out once, here;
 * naming a request costs one map lookup on `req.route`, which the router leaves set.
 */
export function namedRoute<Path extends string>(
  router: { route<T extends string | RegExp>(path: T): IRoute<T> },
  mountPath: string,
  path: Path,
): IRoute<Path> {
  const route = router.route(path);
  patterns.set(route, joinPattern(mountPath, path));
  return route;
}

/** For a router that is not ours (the queue dashboard): every request under it is named after its mount. */
export function nameMount(pattern: string): RequestHandler {
  return (req, _res, next) => {
    (req as Marked)[MOUNT] = pattern;
    next();
  };
}

/** The pattern of the route that answered, or `unmatched` (404s, and requests refused before routing). */
export function routePatternOf(req: Request): string {
  const mount = (req as Marked)[MOUNT];
  if (mount !== undefined) return mount;
  const route: unknown = req.route;
  return (typeof route === 'object' && route !== null && patterns.get(route)) || 'unmatched';
}
