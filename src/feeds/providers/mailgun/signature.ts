import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { checkTimestamp, FeedVerificationError } from '../../feed-errors.js';
import type { FeedRequest } from '../../feed-request.js';

/** What a Mailgun feed's requests are verified with: the HTTP webhook signing key. */
export interface MailgunVerification {
  signing_key: string;
}

const signedBody = z.object({
  signature: z.object({
    timestamp: z.union([z.string(), z.number().transform(String)]),
    token: z.string().min(1).max(200),
    signature: z.string(),
  }),
});

/**
 * Mailgun's webhook signature: HMAC-SHA256 of `timestamp + token` with the signing key, in the body's
 * `signature` object. Returns the token, which the caller reserves to refuse a replay.
 */
export function verifyMailgun(verification: MailgunVerification, request: FeedRequest, nowMs = Date.now()): string {
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    body = undefined;
  }
  const parsed = signedBody.safeParse(body);
  if (!parsed.success) {
    throw new FeedVerificationError(
      'signature',
      'the body has no `signature` object with timestamp, token and signature',
    );
  }
  const { timestamp, token, signature } = parsed.data.signature;
  checkTimestamp(timestamp, nowMs);
  const expected = createHmac('sha256', verification.signing_key)
    .update(timestamp + token)
    .digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new FeedVerificationError('signature', 'the signature does not match the timestamp and token');
  }
  return token;
}
