import { setTimeout as sleep } from 'node:timers/promises';
import { parseCheckAnswer, type SuppressionCheckResult } from './check-result.js';
import { SuppressionApiError, SuppressionCheckUnavailableError } from './errors.js';
import { backoffDelayMs, isRetryableStatus, retryAfterMs } from './retry-policy.js';

/** Where checks are sent, and as whom. */
export interface CheckEndpoint {
  url: string;
  apiKey: string;
  /** The scope of the send checked for; absent: a send of no scope, stopped only by entries for the whole account. */
  scope?: string | undefined;
}

/** The time one `check()` call has, shared by all of its requests. */
export interface CallBudget {
  timeoutMs: number;
  /** When the call must be over (`Date.now()` time). */
  deadline: number;
  /**
   * Aborted with a `BudgetSpentError` at the deadline, or with another reason once another request
   * of the call has failed (whose error is then the call's, so this request's own does not matter).
   */
  signal: AbortSignal;
}

/** The abort reason of a call's signal at its deadline. */
export class BudgetSpentError extends Error {
  override readonly name = 'BudgetSpentError';
}

/** A failed attempt worth repeating, and how to say what went wrong. */
interface Failure {
  error: unknown;
  why: string;
  /** What the service asked for in `retry-after`, when it did. */
  waitMs?: number | undefined;
}

/** An attempt's outcome, unless it threw what no retry can mend. */
type Attempt = { result: SuppressionCheckResult } | { failure: Failure } | { aborted: true };

/** `ECONNREFUSED` rather than fetch's "fetch failed": the reason is in the chain of causes. */
function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  let message = String(error);
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    message = current.message;
    current = current.cause;
  }
  return message;
}

function parseJson(text: string): { body: unknown } | undefined {
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The API's own error when the body is one (`{statusCode, name, message}`), otherwise the bare status. */
function toApiError(status: number, text: string): SuppressionApiError {
  const body = parseJson(text)?.body as { name?: unknown; message?: unknown } | null | undefined;
  if (typeof body?.name === 'string' && typeof body.message === 'string') {
    return new SuppressionApiError(status, body.name, body.message);
  }
  return new SuppressionApiError(status, 'unexpected_response', `The server answered ${status} without an API error.`);
}

/**
 * One request. Throws what no retry can mend (a refusal, or an answer that is not a check result);
 * returns any other failure, or that the call's signal cut it short.
 */
async function attempt(
  endpoint: CheckEndpoint,
  emails: readonly string[],
  signal: AbortSignal,
  attempts: number,
): Promise<Attempt> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${endpoint.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(endpoint.scope === undefined ? { emails } : { emails, scope: endpoint.scope }),
      signal,
      // The API never redirects: a redirect means a wrong base URL, and following one would hand
      // the key to wherever it points.
      redirect: 'manual',
    });
    // Read to the end whatever the status, so that the connection can be used again.
    text = await response.text();
  } catch (error) {
    if (signal.aborted) return { aborted: true };
    return { failure: { error, why: `a network error (${describeNetworkError(error)})` } };
  }

  if (response.ok) {
    const json = parseJson(text);
    const parsed = json ? parseCheckAnswer(json.body, emails) : { problem: 'not JSON' };
    if ('result' in parsed) return parsed;
    const problem = new Error(parsed.problem);
    throw new SuppressionCheckUnavailableError(
      `The suppression check answered ${response.status} with something other than the check of the addresses sent: ${parsed.problem}.`,
      attempts,
      { cause: problem },
    );
  }

  const error = toApiError(response.status, text);
  if (!isRetryableStatus(response.status)) throw error;
  return {
    failure: {
      error,
      why: `${error.statusCode} ${error.code}`,
      waitMs: retryAfterMs(response.headers.get('retry-after')),
    },
  };
}

/** The error for a call's signal aborting this request's attempt or wait. */
function stopped(budget: CallBudget, attempts: number, last: Failure | undefined, inFlight: boolean): unknown {
  const reason: unknown = budget.signal.reason;
  if (!(reason instanceof BudgetSpentError)) return reason;
  const what = inFlight
    ? `attempt ${attempts} got no answer in time` + (last ? `; the one before failed with ${last.why}` : '')
    : `${attempts} attempt(s) failed, the last with ${last?.why ?? 'no answer'}`;
  const message = `No suppression check within ${budget.timeoutMs} ms: ${what}.`;
  return new SuppressionCheckUnavailableError(message, attempts, { cause: last?.error ?? reason });
}

/**
 * The check of `emails` (at most one request's worth), asked again after each failure worth
 * repeating, until an answer or the end of the call's budget: a 429 after its `retry-after`, any
 * other failure after `backoffDelayMs`. A wait that would end past the deadline is not begun: the
 * call gives up at once rather than sleep into certain failure.
 */
export async function requestCheck(
  endpoint: CheckEndpoint,
  emails: readonly string[],
  budget: CallBudget,
): Promise<SuppressionCheckResult> {
  let last: Failure | undefined;
  for (let attempts = 1; ; attempts++) {
    const outcome = await attempt(endpoint, emails, budget.signal, attempts);
    if ('result' in outcome) return outcome.result;
    if ('aborted' in outcome) throw stopped(budget, attempts, last, true);
    last = outcome.failure;

    const waitMs = last.waitMs ?? backoffDelayMs(attempts);
    const remainingMs = budget.deadline - Date.now();
    if (waitMs >= remainingMs) {
      const wait =
        last.waitMs === undefined
          ? `the next attempt would be past the deadline`
          : `the service asks to wait ${waitMs / 1000} s, past the deadline`;
      throw new SuppressionCheckUnavailableError(
        `No suppression check within ${budget.timeoutMs} ms: ${attempts} attempt(s) failed, the last with ${last.why}, and ${wait}.`,
        attempts,
        { cause: last.error },
      );
    }
    try {
      await sleep(waitMs, undefined, { signal: budget.signal });
    } catch (error) {
      throw budget.signal.aborted ? stopped(budget, attempts, last, false) : error;
    }
  }
}
