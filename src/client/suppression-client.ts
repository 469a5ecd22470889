import { MAX_CHECK_ITEMS } from '../contract/limits.js';
import type { SuppressionCheckResult } from './check-result.js';
import { requestUnsubscribeHeaders, type UnsubscribeHeadersResult } from './unsubscribe-headers.js';
import { BudgetSpentError, requestCheck, type CallBudget, type CheckEndpoint } from './check-request.js';
import {
  mergeCheckResults,
  sendableOf,
  splitIntoChunks,
  type ChunkResult,
  type SendableAddresses,
} from './merge-results.js';

/** The most addresses `POST /suppressions/check` takes in one request: the contract's limit, by its public name. */
export const MAX_ADDRESSES_PER_REQUEST = MAX_CHECK_ITEMS;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONCURRENCY = 4;

export interface SuppressionClientOptions {
  /** Where the service is, e.g. `https://suppressions.internal` (a path prefix is kept). */
  baseUrl: string;
  /** A `full_access` or `sending_access` key. */
  apiKey: string;
  /** How long one `check()` or `filterSendable()` call may take, retries included (default 10,000). */
  timeoutMs?: number;
  /** Requests of one call in flight at once (default 4). */
  concurrency?: number;
}

/** What a send is: without a scope, only entries for the whole account stop it. */
export interface CheckOptions {
  /**
   * The scope the mail is sent in (`newsletter`, a stream's name): entries of that scope stop it too.
   * Leave it out for mail every recipient must get, such as a password reset.
   */
  scope?: string;
}

export interface SuppressionClient {
  /**
   * Which of `emails` are suppressed, for any number of addresses: the API's answer as if it took
   * them all in one request. Throws `SuppressionApiError` when the API refuses the request (a scope
   * that is not one among them), and `SuppressionCheckUnavailableError` when it could not be asked
   * within `timeoutMs`.
   */
  check(emails: readonly string[], options?: CheckOptions): Promise<SuppressionCheckResult>;
  /** The addresses of `emails` that may be mailed; throws as `check` does, never returning an address unchecked. */
  filterSendable(emails: readonly string[], options?: CheckOptions): Promise<SendableAddresses>;
  /**
   * The one-click unsubscribe headers (RFC 8058) of each address, for the messages of `scope` (all
   * mail when absent). Throws `SuppressionApiError` when the API refuses.
   */
  unsubscribeHeaders(emails: readonly string[], scope?: string): Promise<UnsubscribeHeadersResult>;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`);
  return value;
}

function apiUrl(baseUrl: string, path: string): string {
  const base = new URL(baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError('baseUrl must be an http: or https: URL.');
  }
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`;
}

/**
 * A client of the send-time check for mail systems. Each call splits its addresses into requests of
 * at most 1,000, runs up to `concurrency` of them at once over kept-alive connections (Node's
 * `fetch`), retries what may pass on a retry within the call's `timeoutMs`, and merges the answers in
 * input order. A call either answers for every address or throws: when any request fails for good,
 * the others are aborted and nothing of the call is returned.
 */
export function createSuppressionClient(options: SuppressionClientOptions): SuppressionClient {
  // A key that cannot go in a header would fail every request as if the network had, until the budget ran out.
  if (!/^[\x21-\x7e]+$/.test(options.apiKey)) throw new TypeError('apiKey must be a non-empty token.');
  const url = apiUrl(options.baseUrl, '/suppressions/check');
  const linksUrl = apiUrl(options.baseUrl, '/unsubscribe-links');
  const timeoutMs = positiveInteger(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const concurrency = positiveInteger(options.concurrency ?? DEFAULT_CONCURRENCY, 'concurrency');

  async function check(emails: readonly string[], checkOptions: CheckOptions = {}): Promise<SuppressionCheckResult> {
    const endpoint: CheckEndpoint = { url, apiKey: options.apiKey, scope: checkOptions.scope };
    // Caught here with its position in the whole input, rather than as a 422 about a position in one request.
    const notString = emails.findIndex((email) => typeof email !== 'string');
    if (notString !== -1) throw new TypeError(`emails[${notString}] is not a string.`);

    const chunks = splitIntoChunks(emails, MAX_ADDRESSES_PER_REQUEST);
    const controller = new AbortController();
    const budget: CallBudget = { timeoutMs, deadline: Date.now() + timeoutMs, signal: controller.signal };
    const timer = setTimeout(() => controller.abort(new BudgetSpentError(`${timeoutMs} ms spent`)), timeoutMs);
    const results: ChunkResult[] = [];
    let failure: { error: unknown } | undefined;
    let next = 0;

    // Each worker takes the next chunk until none is left or one has failed.
    async function work(): Promise<void> {
      while (failure === undefined && next < chunks.length) {
        const chunk = chunks[next++] as (typeof chunks)[number];
        try {
          results.push({ ...chunk, result: await requestCheck(endpoint, chunk.emails, budget) });
        } catch (error) {
          if (failure === undefined) {
            failure = { error };
            // The call has failed as a whole: the other requests would be answered in vain.
            controller.abort(new Error('Another request of the same call failed.'));
          }
        }
      }
    }

    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, work));
    } finally {
      clearTimeout(timer);
    }
    if (failure !== undefined) throw failure.error;
    results.sort((a, b) => a.offset - b.offset);
    return mergeCheckResults(results);
  }

  return {
    check,
    async filterSendable(emails, checkOptions) {
      return sendableOf(emails, await check(emails, checkOptions));
    },
    unsubscribeHeaders: (emails, scope) => requestUnsubscribeHeaders(linksUrl, options.apiKey, emails, scope),
  };
}
