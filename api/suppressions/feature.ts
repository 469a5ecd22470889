import { defineFeature } from '../http/endpoints.js';
import { batchAddEndpoint, batchRemoveEndpoint } from './batch.js';
import { checkEndpoint } from './check.js';
import type { SuppressionsDeps } from './deps.js';
import {
  addSuppressionEndpoint,
  getSuppressionEndpoint,
  listSuppressionsEndpoint,
  removeSuppressionEndpoint,
} from './entries.js';
import { exportEndpoint } from './export.js';
import { historyEndpoint } from './history.js';
import { getImportEndpoint, importEndpoint } from './imports.js';

/** Where the suppressions endpoints are mounted. */
const SUPPRESSIONS_PATH = '/suppressions';

/**
 * The list and its entries, an address's history, the send-time check, batches, export and
 * imports, in the order the reference lists them (the router matches literal paths first).
 */
export const suppressionsFeature = defineFeature<SuppressionsDeps>(SUPPRESSIONS_PATH, [
  listSuppressionsEndpoint,
  exportEndpoint,
  addSuppressionEndpoint,
  getSuppressionEndpoint,
  historyEndpoint,
  removeSuppressionEndpoint,
  checkEndpoint,
  batchAddEndpoint,
  batchRemoveEndpoint,
  importEndpoint,
  getImportEndpoint,
]);
