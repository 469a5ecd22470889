export { normalizeEmail, emailProblem, MAX_EMAIL_LENGTH } from './domain/email.js';
export { ORIGINS, type Origin } from './domain/origins.js';
export type { SuppressionResource } from './contract/suppression.js';
export { createEventProducer, type EventProducer, type EventProducerOptions } from './events/event-producer.js';
export { ReplicasBehindError } from './replicated-queue.js';
export {
  suppressionEventSchema,
  parseSuppressionEvent,
  InvalidEventError,
  EVENT_TYPES,
  BOUNCE_TYPES,
  type SuppressionEvent,
  type SuppressionEventInput,
} from './events/event-schema.js';
export { eventJobId } from './events/job-id.js';
export { EVENTS_QUEUE, DEFAULT_JOB_OPTIONS } from './queues.js';
export { createBatchProducer, type BatchProducer } from './batches/batch-producer.js';
export {
  addBatchSchema,
  removeBatchSchema,
  InvalidBatchError,
  type AddBatchInput,
  type RemoveBatchInput,
  type BatchResult,
  type InvalidEntry,
} from './batches/batch-schema.js';
export { BATCHES_QUEUE, MAX_BATCH_JOB_ENTRIES } from './queues.js';
export type { ProducerConnectionOptions } from './producer-queue.js';
export type { RedisClient, RedisEndpoint, RedisNode } from './redis.js';
export {
  createSuppressionClient,
  MAX_ADDRESSES_PER_REQUEST,
  type CheckOptions,
  type SuppressionClient,
  type SuppressionClientOptions,
} from './client/suppression-client.js';
export type { UnsubscribeHeaders, UnsubscribeHeadersResult } from './client/unsubscribe-headers.js';
export { makeReturnPath, type ReturnPathOptions, type ReturnPathSecretInput } from './client/return-path.js';
export { SuppressionApiError, SuppressionCheckUnavailableError } from './client/errors.js';
export type { SuppressionCheckResult, InvalidAddress } from './client/check-result.js';
export type { SendableAddresses } from './client/merge-results.js';
