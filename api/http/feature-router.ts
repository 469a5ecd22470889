import { Router, type RequestHandler } from 'express';
import { mountFeature, publicAccessOf, type EndpointGuards, type Feature } from './endpoints.js';
import { bodyParserOf, isJson } from './request-bodies.js';

/** How a feature is mounted: where, and what runs before its endpoints. */
export interface FeatureMount extends EndpointGuards {
  /** Names the routes in metrics and logs; the feature's own unless it is mounted again elsewhere (the console). */
  mountPath?: string;
  /** For every request that reaches the router, whoever makes it. */
  before?: readonly RequestHandler[];
  /**
   * For every request that reaches the router but those of the feature's `public` endpoints:
   * authentication and rate limits, before the route is found (a 404 or 405 needs a key too). Here
   * rather than as layers of their own on the app's mount path, they cost no path trimming per
   * request.
   */
  guards?: readonly RequestHandler[];
}

/** `guards` as one step that a request of a `public` endpoint passes by. */
function unlessPublic<Deps>(feature: Feature<Deps>, guards: readonly RequestHandler[]): readonly RequestHandler[] {
  if (!feature.endpoints.some((endpoint) => endpoint.access === 'public')) return guards;
  const isPublic = publicAccessOf(feature);
  const guarded = Router();
  guarded.use(...guards);
  return [(req, res, next) => (isPublic(req) ? next() : guarded(req, res, next))];
}

/**
 * For a request that reached the router but no endpoint: the JSON parser that the feature's
 * endpoints of its method declare, so that a body that cannot be read or stored is refused (400,
 * 413, 422) before the 404, as any endpoint of that method would refuse it.
 */
function unmatchedJsonBodies<Deps>(feature: Feature<Deps>): RequestHandler | undefined {
  const byMethod = new Map<string, RequestHandler>();
  for (const { method, body = 'none' } of feature.endpoints) {
    const parser = bodyParserOf(body);
    if (isJson(body) && parser) byMethod.set(method.toUpperCase(), parser);
  }
  if (byMethod.size === 0) return undefined;
  return (req, res, next) => {
    const parser = byMethod.get(req.method);
    if (parser) parser(req, res, next);
    else next();
  };
}

/** A feature's router: its endpoints with their dependencies, behind what `mount` puts in front of them. */
export function featureRouter<Deps>(feature: Feature<Deps>, deps: Deps, mount: FeatureMount = {}): Router {
  const { mountPath = feature.mountPath, before = [], guards = [], ...endpointGuards } = mount;
  const router = Router();
  if (before.length > 0) router.use(...before);
  if (guards.length > 0) router.use(...unlessPublic(feature, guards));
  mountFeature(router, feature, deps, mountPath, endpointGuards);
  const unmatched = unmatchedJsonBodies(feature);
  if (unmatched) router.use(unmatched);
  return router;
}
