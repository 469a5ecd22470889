/**
 * `<package>/testcontainers`: the service in a container for the tests of the systems around it, as
 * Testcontainers' own modules start PostgreSQL or Redis. Needs the `testcontainers` package (a peer
 * dependency) and a container runtime; nothing else of the package loads it.
 */
export { SuppressionListContainer, type Role } from './suppression-list-container.js';
export { StartedSuppressionListContainer, type HistoryRecord } from './started-suppression-list-container.js';
export { DEFAULT_ACCOUNT, DEFAULT_IMAGE, DEFAULT_SMTP_PORT, HTTP_PORT } from './defaults.js';
export {
  DEFAULT_POSTGRES_IMAGE,
  DEFAULT_REDIS_IMAGE,
  type PostgresSource,
  type RedisSource,
  type StartedPostgres,
  type StartedRedis,
} from './backing-stores.js';
export type { ApiKeyPermission, ApiKeyRequest, IssuedApiKey } from './api-keys.js';
