import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { checkTimestamp, FeedVerificationError, headerValue } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/**
 * What a SendGrid feed's requests are verified with: the Event Webhook's ECDSA P-256 public key,
 * base64 DER as SendGrid shows it.
 */
export interface SendGridVerification {
  public_key: string;
}

const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/**
 * The verification key as SendGrid shows it (base64 DER, PEM armour tolerated), or null when it is not
 * an EC P-256 public key.
 */
export function sendGridPublicKey(text: string): KeyObject | null {
  const base64 = text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  try {
    const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

/** SendGrid's Event Webhook signature: ECDSA P-256 with SHA-256 over the timestamp header and the raw body. */
export function verifySendGrid(verification: SendGridVerification, request: FeedRequest, nowMs = Date.now()): void {
  const signature = headerValue(request.headers, SIGNATURE_HEADER);
  const timestamp = headerValue(request.headers, TIMESTAMP_HEADER);
  if (!signature || !timestamp) {
    throw new FeedVerificationError(
      'signature',
      'the X-Twilio-Email-Event-Webhook-Signature and X-Twilio-Email-Event-Webhook-Timestamp headers are required',
    );
  }
  checkTimestamp(timestamp, nowMs);
  const key = sendGridPublicKey(verification.public_key);
  let valid: boolean;
  try {
    valid =
      key !== null &&
      verify('sha256', Buffer.concat([Buffer.from(timestamp), request.body]), key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) throw new FeedVerificationError('signature', 'the signature does not match the body and timestamp');
}
