import { Router, type RequestHandler } from 'express';
import { defineFeature, mountFeature, publicAccessOf, sendingAccessOf } from '../http/endpoints.js';
import type { EventsDeps } from './deps.js';
import { eventSchemaEndpoint } from './event-schema-document.js';
import { postEventsEndpoint } from './post-events.js';

/** Where the event endpoints are mounted. */
export const EVENTS_PATH = '/events';

/** Bounce and complaint events over HTTP, and their format as a JSON Schema. */
export const eventsFeature = defineFeature<EventsDeps>(EVENTS_PATH, [postEventsEndpoint, eventSchemaEndpoint]);

/** The requests of this feature a `sending_access` key may make: those declared `sending`. */
export const isSendingEventsRequest = sendingAccessOf(eventsFeature);

/** The requests of this feature that need no key: the schema. */
export const isPublicEventsRequest = publicAccessOf(eventsFeature);

/**
 * The feature's router. `guards` (authentication, rate limiting, body parsing) run first for every
 * request that reaches it but the public ones.
 */
export function eventsRouter(deps: EventsDeps, guards: readonly RequestHandler[] = []): Router {
  const router = Router();
  if (guards.length > 0) {
    const guarded = Router();
    guarded.use(...guards);
    router.use((req, res, next) => (isPublicEventsRequest(req) ? next() : guarded(req, res, next)));
  }
  mountFeature(router, eventsFeature, deps);
  return router;
}
