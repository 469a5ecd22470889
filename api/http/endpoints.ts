import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Router } from 'express';
import { match } from 'path-to-regexp';
import { methodNotAllowed } from './errors.js';
import { bodyParserOf, isReadFirst, type BodyKind } from './request-bodies.js';
import { namedRoute } from './route-pattern.js';

/**
 * Who may call an endpoint: `full` a `full_access` key; `sending` a `sending_access` key too (what
 * a mail system's send path calls); `session` the console's session cookie; `public` no key (the
 * caller proves itself otherwise, as a provider's feed does, or the answer is public).
 */
export type Access = 'full' | 'sending' | 'session' | 'public';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The order a 405's `Allow` lists a path's methods in, whatever order they were declared in. */
const METHOD_ORDER: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** What the document says of an operation: all of it but the method and path, which the endpoint gives. */
export type OperationDoc = Omit<RouteConfig, 'method' | 'path'>;

/**
 * One operation, declared once: its method and path, who may call it, how it takes its body, its
 * documentation and its handler, so that none of them can drift from the others. `handler` is made
 * once, when the feature is mounted, from the feature's dependencies.
 */
export interface Endpoint<Deps> {
  method: Method;
  /** Relative to the feature's mount path, in Express's syntax (`/reclassifications/:id`). */
  path: string;
  access: Access;
  /** What reads the request's body before the handler; `none` when absent. */
  body?: BodyKind;
  doc: OperationDoc;
  handler: (deps: Deps) => RequestHandler | readonly RequestHandler[];
}

/**
 * A `:parameter` of an endpoint's path. A handler sees the router's untyped parameters (a
 * wildcard's would be a list); a plain `:parameter` is always a string, and anything else names
 * nothing.
 */
export function pathParameter(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** A feature's endpoints under one mount path. */
export interface Feature<Deps> {
  mountPath: string;
  endpoints: readonly Endpoint<Deps>[];
}

/**
 * A feature, refused when it is loaded if an endpoint reads a body that its operation does not
 * document, or documents one that nothing reads: the reference and the route cannot part ways.
 */
export function defineFeature<Deps>(mountPath: string, endpoints: readonly Endpoint<Deps>[]): Feature<Deps> {
  for (const { method, path, body = 'none', doc } of endpoints) {
    const operation = `${method.toUpperCase()} ${documentPath(mountPath, path)}`;
    const documented = doc.request?.body !== undefined;
    if (body !== 'none' && !documented) throw new Error(`${operation} reads a \`${body}\` body it does not document.`);
    if (body === 'none' && documented) throw new Error(`${operation} documents a request body but declares none.`);
  }
  return { mountPath, endpoints };
}

/**
 * The segment at which a path's first `:parameter` is; for a path without one, its length, past its
 * last segment: no path with a parameter there can match what it matches.
 */
function firstParameterAt(path: string): number {
  const segments = path.split('/');
  const at = segments.findIndex((segment) => segment.startsWith(':'));
  return at === -1 ? segments.length : at;
}

/**
 * The endpoints by path (a path's methods share one route), in the order the router must try them:
 * the later a path's first parameter, the earlier it comes, so `/check` and `/imports/:import` are
 * matched before `/:suppression` would take `check` or `imports` for an address. Otherwise in the
 * order declared, which is the reference's.
 */
export function byPath<Deps>(endpoints: readonly Endpoint<Deps>[]): Map<string, Endpoint<Deps>[]> {
  const paths = new Map<string, Endpoint<Deps>[]>();
  for (const endpoint of endpoints) {
    const same = paths.get(endpoint.path);
    if (same) same.push(endpoint);
    else paths.set(endpoint.path, [endpoint]);
  }
  const ordered = [...paths].sort(([a], [b]) => firstParameterAt(b) - firstParameterAt(a));
  return new Map(ordered);
}

/** What a mount runs in the route of an endpoint, as the endpoint's declaration calls for it. */
export interface EndpointGuards {
  /** Before the body of each endpoint declared `session`: the console session's check, and its rate limit. */
  session?: readonly RequestHandler[] | undefined;
  /**
   * After the body of each POST of a caller who is known (not `public`), whose body is known before
   * the handler: idempotency keys, which fingerprint it.
   */
  idempotent?: readonly RequestHandler[] | undefined;
}

/** An endpoint's route: the guards its declaration calls for, the reading of its body, its handler. */
function stepsOf<Deps>(endpoint: Endpoint<Deps>, deps: Deps, guards: EndpointGuards): RequestHandler[] {
  const body = endpoint.body ?? 'none';
  const session = endpoint.access === 'session' ? guards.session : [];
  // A `session` handler reads the session its check leaves: without the check, every request would fail.
  if (!session) {
    throw new Error(
      `${endpoint.method.toUpperCase()} ${endpoint.path} is declared \`session\` but mounted without its check.`,
    );
  }
  const parser = bodyParserOf(body);
  const idempotent = endpoint.method === 'post' && endpoint.access !== 'public' && isReadFirst(body);
  const made = endpoint.handler(deps);
  return [
    ...session,
    ...(parser ? [parser] : []),
    ...((idempotent && guards.idempotent) || []),
    ...(typeof made === 'function' ? [made] : made),
  ];
}

/**
 * Mounts a feature's endpoints on `router`: one route per path, named for metrics and logs after
 * `mountPath` (the console mounts some features a second time, under its own path), each method's
 * body parser, `guards` and handler as its declaration says, and 405 for the methods the path does
 * not have. Nothing here runs per request.
 */
export function mountFeature<Deps>(
  router: Router,
  feature: Feature<Deps>,
  deps: Deps,
  mountPath: string = feature.mountPath,
  guards: EndpointGuards = {},
): void {
  for (const [path, endpoints] of byPath(feature.endpoints)) {
    const route = namedRoute(router, mountPath, path);
    for (const endpoint of endpoints) route[endpoint.method](...stepsOf(endpoint, deps, guards));
    const allowed = METHOD_ORDER.filter((method) => endpoints.some((endpoint) => endpoint.method === method));
    route.all(methodNotAllowed(...allowed.map((method) => method.toUpperCase())));
  }
}

/**
 * Whether a `sending_access` key may make a request that reached the feature's router (its
 * `req.path` is relative to the mount path): the endpoints declared `sending`, and no other.
 */
export function sendingAccessOf<Deps>(feature: Feature<Deps>): (req: Request) => boolean {
  return requestsWithAccess(feature, 'sending');
}

/**
 * Whether a request that reached the feature's router is for one of its endpoints declared
 * `public`, which a feature of keyed endpoints serves without its guards.
 */
export function publicAccessOf<Deps>(feature: Feature<Deps>): (req: Request) => boolean {
  return requestsWithAccess(feature, 'public');
}

function requestsWithAccess<Deps>(feature: Feature<Deps>, access: Access): (req: Request) => boolean {
  const allowed = feature.endpoints
    .filter((endpoint) => endpoint.access === access)
    .map((endpoint) => ({ method: endpoint.method.toUpperCase(), matches: match(endpoint.path) }));
  // Express answers a HEAD with the GET's route.
  return (req) => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    return allowed.some((endpoint) => endpoint.method === method && endpoint.matches(req.path) !== false);
  };
}

const SECURITY: Record<Access, RouteConfig['security']> = {
  full: [{ bearerAuth: [] }],
  sending: [{ bearerAuth: [] }],
  session: [{ consoleSession: [] }],
  public: [],
};

/** The document's path of an Express path: `/suppressions/:suppression` → `/suppressions/{suppression}`. */
export function documentPath(mountPath: string, path: string): string {
  const full = path === '/' ? mountPath || '/' : `${mountPath}${path}`;
  return full.replace(/:(\w+)/g, '{$1}');
}

/**
 * A feature's operations for the OpenAPI document. The security comes from the access unless the
 * documentation says otherwise (an optional token, as `/metrics` has).
 */
export function operationsOf<Deps>(feature: Feature<Deps>): RouteConfig[] {
  return feature.endpoints.map((endpoint) => {
    // The operation's fields in the order the document has always listed them.
    const { request, responses, security, ...about } = endpoint.doc;
    return {
      method: endpoint.method,
      path: documentPath(feature.mountPath, endpoint.path),
      ...about,
      security: security ?? SECURITY[endpoint.access],
      ...(request && { request }),
      responses,
    };
  });
}
