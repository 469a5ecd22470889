import type {
  AttemptResource,
  EventLogEntry,
  WebhookEventPayload,
  WebhookEventResource,
} from '../contract/webhook-event.js';
import type { LoggedAttempt, LoggedDelivery } from './event-log.js';

/** A delivery as a webhook's event log lists it (the SDK's `WebhookEventLog`). */
export function toEventLogEntry(delivery: LoggedDelivery): EventLogEntry {
  return {
    id: delivery.id,
    type: delivery.type,
    created_at: delivery.createdAt.toISOString(),
    status: delivery.status,
  };
}

/**
 * A delivery as `GET /webhooks/{id}/events/{event_id}` shows it (the SDK's
 * `GetWebhookEventResponseSuccess`): the payload is stored as the text that was signed, and shown
 * as the object it encodes.
 */
export function toWebhookEventResource(delivery: LoggedDelivery): WebhookEventResource {
  return {
    object: 'webhook_event',
    ...toEventLogEntry(delivery),
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    payload: JSON.parse(delivery.payload) as WebhookEventPayload,
  };
}

/** An attempt as its delivery's attempts list shows it (the SDK's `WebhookEventAttempt`). */
export function toAttemptResource(attempt: LoggedAttempt): AttemptResource {
  return {
    id: attempt.id,
    http_status_code: attempt.httpStatusCode,
    response: attempt.response,
    sent_at: attempt.sentAt.toISOString(),
  };
}
