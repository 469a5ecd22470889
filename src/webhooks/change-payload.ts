import type { WebhookEventPayload } from '../contract/webhook-event.js';
import { toSuppressionResource, type Suppression } from '../suppressions/suppression.js';
import type { WebhookEventType } from './webhook.js';

/** An entry added to an account's list or removed from it, as the outbox recorded it. */
export interface SuppressionChange {
  /** The outbox row's id: the order changes were made in. */
  id: string;
  type: WebhookEventType;
  /** The entry as it was added, or as it was before it was removed. */
  entry: Suppression;
  /** When the change was made. */
  createdAt: Date;
  /** The trace of the write that made it, when that write was traced. */
  traceparent?: string | undefined;
}

/**
 * The body every attempt of a change's deliveries sends, the shape of the SDK's
 * `SuppressionAddedEvent` and `SuppressionRemovedEvent`, with the entry as `GET /suppressions/{id}`
 * shows it. Built once, when the change becomes deliveries, and kept as it will be signed.
 */
export function changePayload(change: SuppressionChange): string {
  const payload = {
    type: change.type,
    created_at: change.createdAt.toISOString(),
    data: toSuppressionResource(change.entry),
  } satisfies WebhookEventPayload;
  return JSON.stringify(payload);
}
