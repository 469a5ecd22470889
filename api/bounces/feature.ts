import { defineFeature } from '../http/endpoints.js';
import { classifyEndpoint } from './classify.js';
import type { BouncesDeps } from './deps.js';
import {
  getReclassificationEndpoint,
  listReclassificationEntriesEndpoint,
  startReclassificationEndpoint,
} from './reclassifications.js';
import { summaryEndpoint } from './summary.js';

/** Where the bounce endpoints are mounted. */
const BOUNCES_PATH = '/bounces';

/** The bounce classifier on demand, an account's bounce summary, and reclassifications of its stored records. */
export const bouncesFeature = defineFeature<BouncesDeps>(BOUNCES_PATH, [
  classifyEndpoint,
  summaryEndpoint,
  startReclassificationEndpoint,
  getReclassificationEndpoint,
  listReclassificationEntriesEndpoint,
]);
