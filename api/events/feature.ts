import { defineFeature } from '../http/endpoints.js';
import type { EventsDeps } from './deps.js';
import { eventSchemaEndpoint } from './event-schema-document.js';
import { postEventsEndpoint } from './post-events.js';

/** Where the event endpoints are mounted. */
const EVENTS_PATH = '/events';

/** Bounce and complaint events over HTTP, and their format as a JSON Schema. */
export const eventsFeature = defineFeature<EventsDeps>(EVENTS_PATH, [postEventsEndpoint, eventSchemaEndpoint]);
