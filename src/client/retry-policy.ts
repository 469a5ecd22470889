/** The first wait after a failure; each further failure doubles it, up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 100;
export const MAX_BACKOFF_MS = 2000;

/**
 * How long to wait after the `failures`-th failed attempt in a row (from 1): 100 ms doubling per
 * failure, capped at 2 s, of which a random half is taken off ("equal jitter"). Clients that failed
 * together (every mail process at once when the service restarts) thus spread out their retries,
 * while each still waits at least half the step.
 */
export function backoffDelayMs(failures: number, random: () => number = Math.random): number {
  // The exponent is bounded too, so that a long run of failures cannot overflow to Infinity.
  const doublings = Math.min(Math.max(failures - 1, 0), 16);
  const step = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** doublings);
  return step / 2 + random() * (step / 2);
}

/**
 * The wait a `retry-after` header asks for, in ms: whole seconds (what this service sends) or an
 * HTTP date. Undefined when there is no header or it says neither.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  // Every HTTP date names its weekday and month; `Date.parse` alone would read "-1" or "1.5" as years.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Statuses worth another attempt: the service is overloaded or down (5xx), over the account's rate
 * (429), or the request reached it too slowly (408). Every other status is an answer that a retry
 * would only repeat.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}
