import { Webhook } from 'standardwebhooks';

/**
 * The headers of one attempt: Svix's names, which Resend sends, and Standard Webhooks' names, which
 * Resend's SDK reads; the same values under both. The signature is `v1,<base64 HMAC-SHA256>` of
 * `id.timestamp.body` per secret, space-separated, so a receiver that holds either the current or
 * the rotated-out secret accepts it. The timestamp is the attempt's, the id the delivery's.
 */
export function signatureHeaders(
  deliveryId: string,
  sentAt: Date,
  payload: string,
  secrets: readonly string[],
): Record<string, string> {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signature = secrets.map((secret) => new Webhook(secret).sign(deliveryId, sentAt, payload)).join(' ');
  return {
    'svix-id': deliveryId,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
    'webhook-id': deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}
