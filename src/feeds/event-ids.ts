import { createHash } from 'node:crypto';
import { v5 } from 'uuid';
import { isUuid } from '../domain/ids.js';

const EVENT_ID_LIMIT = 255;

/**
 * The event id of one recipient of one provider event: a provider's retry carries the same ids, so it
 * is the same event however often it arrives. An id too long for the audit trail keeps the provider's
 * part and a digest of the address. `provider` is the registered name its mapping passes: a plain
 * string, because the registry imports the mappings and must not be imported back.
 */
export function feedEventId(provider: string, providerEventId: string, email: string): string {
  const id = `${provider}:${providerEventId}:${email.trim().toLowerCase()}`;
  if (id.length <= EVENT_ID_LIMIT) return id;
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const head = `${provider}:${providerEventId}`.slice(0, EVENT_ID_LIMIT - digest.length - 1);
  return `${head}:${digest}`;
}

/**
 * The event's `source_id`, which must be a UUID: the value of the message's email-id tag when it
 * is one, else the provider's message id when it is one, else a UUIDv5 of the provider's message id
 * in the provider's namespace, so the same message always has the same source id.
 */
export function feedSourceId(namespace: string, tagValue: unknown, messageId: string): string {
  if (typeof tagValue === 'string' && isUuid(tagValue.trim())) return tagValue.trim().toLowerCase();
  if (isUuid(messageId)) return messageId.toLowerCase();
  return v5(messageId, namespace);
}
