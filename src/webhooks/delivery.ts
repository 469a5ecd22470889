/** As Resend's event log names them: not yet tried, failed and to be retried, delivered, given up. */
export type DeliveryStatus = 'pending' | 'attempting' | 'success' | 'failed';

/** A delivery to be attempted: the job that makes attempt number `attempt` (0-based, over every round). */
export interface DueDelivery {
  deliveryId: string;
  attempt: number;
  /** The attempt the current round of retries began at (a replay begins a new one). */
  roundStart: number;
  /** The trace of the write that made the change (a W3C traceparent), for its first attempt's job. */
  traceparent?: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits between attempts, as Svix retries: 8 attempts over about 27 hours, then the delivery fails. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** What becomes of a delivery after an attempt of its round number `roundAttempt` (0-based) that did not succeed. */
export function afterFailure(
  roundAttempt: number,
  delaysMs: readonly number[],
  now: Date,
): { status: 'attempting'; nextAttemptAt: Date } | { status: 'failed'; nextAttemptAt: null } {
  const delay = delaysMs[roundAttempt];
  if (delay === undefined) return { status: 'failed', nextAttemptAt: null };
  return { status: 'attempting', nextAttemptAt: new Date(now.getTime() + delay) };
}
