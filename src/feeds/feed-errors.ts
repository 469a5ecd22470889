/** Why a feed request was not trusted: the `reason` label of the verification-failure metric. */
export type VerificationFailure = 'signature' | 'timestamp' | 'credentials' | 'topic' | 'certificate' | 'replay';

/** The request is not provably from the provider; nothing of it may be queued. */
export class FeedVerificationError extends Error {
  override name = 'FeedVerificationError';

  constructor(
    readonly reason: VerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Something the request needs (a certificate host, Redis) did not answer: the provider should retry. */
export class FeedUnavailableError extends Error {
  override name = 'FeedUnavailableError';
}

/** The request is authentic but is not what the provider sends; the message names what is wrong. */
export class InvalidPayloadError extends Error {
  override name = 'InvalidPayloadError';
}

/** `feeds create` was given options the provider cannot make a feed of; the message says which. */
export class FeedSettingsError extends Error {
  override name = 'FeedSettingsError';
}

/** How far a signed timestamp may be from now, either way. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** Refuses a signed Unix timestamp (seconds, as text) more than five minutes from now. */
export function checkTimestamp(seconds: string, nowMs: number): void {
  if (!/^\d{1,12}$/.test(seconds)) {
    throw new FeedVerificationError('timestamp', 'the signed timestamp is not a Unix time in seconds');
  }
  if (Math.abs(nowMs / 1000 - Number(seconds)) > TIMESTAMP_TOLERANCE_SECONDS) {
    throw new FeedVerificationError('timestamp', 'the signed timestamp is more than 5 minutes from now');
  }
}

/** One header's value, whichever case it was sent in; Node gives repeated headers as an array. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
