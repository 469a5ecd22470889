import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { FeedVerificationError, headerValue } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/** What a Resend feed's requests are verified with: the Svix signing secret (`whsec_...`). */
export interface ResendVerification {
  signing_secret: string;
}

/** Whether a signing secret is one the Svix scheme can use: `whsec_` and a base64 key. */
export function isSigningSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resend signs with the Svix scheme and names the headers `svix-*`; the same scheme is also sent with
 * `webhook-*` headers (Standard Webhooks). Either set is accepted. Returns the message id, which a
 * retry of the same message keeps.
 */
export function verifyResend(verification: ResendVerification, request: FeedRequest): string {
  const header = (name: string): string =>
    headerValue(request.headers, `svix-${name}`) ?? headerValue(request.headers, `webhook-${name}`) ?? '';
  const headers = {
    'webhook-id': header('id'),
    'webhook-timestamp': header('timestamp'),
    'webhook-signature': header('signature'),
  };
  try {
    new Webhook(verification.signing_secret).verify(request.body, headers, { jsonParse: false });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    const stale = /timestamp too (old|new)/i.test(error.message);
    throw new FeedVerificationError(
      stale ? 'timestamp' : 'signature',
      stale
        ? 'the signed timestamp is more than 5 minutes from now'
        : headers['webhook-id'] && headers['webhook-timestamp'] && headers['webhook-signature']
          ? 'the signature does not match the body'
          : 'the svix-id, svix-timestamp and svix-signature headers (or webhook-*) are required',
    );
  }
  return headers['webhook-id'];
}
