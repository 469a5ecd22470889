export { normalizeEmail, emailProblem, MAX_EMAIL_LENGTH } from './domain/email.js';
export { ORIGINS, type Origin, type SuppressionResource } from './domain/suppression.js';
export {
  createEventProducer,
  type EventProducer,
  type EventProducerOptions,
} from './events/event-producer.js';
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
