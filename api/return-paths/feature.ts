import { defineFeature } from '../http/endpoints.js';
import {
  createReturnPathsEndpoint,
  getSecretEndpoint,
  rotateSecretEndpoint,
  type ReturnPathsDeps,
} from './return-paths.js';

const RETURN_PATHS_PATH = '/return-paths';

/** Signed VERP return paths for the messages a sender sends, and the secret that signs them. */
export const returnPathsFeature = defineFeature<ReturnPathsDeps>(RETURN_PATHS_PATH, [
  createReturnPathsEndpoint,
  getSecretEndpoint,
  rotateSecretEndpoint,
]);
