import http from 'node:http';
import https from 'node:https';
import { guardedLookup, refusedLiteral, UnsafeAddressError } from './endpoint-safety.js';

/** How much of a response body an attempt keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostOptions {
  endpoint: string;
  body: string;
  headers: Record<string, string>;
  /** Let the endpoint resolve to private and loopback addresses (WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS). */
  allowPrivate: boolean;
  timeoutMs?: number;
}

export interface PostResult {
  /** 0 when no status came back: refused, not connected, or timed out. */
  statusCode: number;
  /** The start of the response body, or what went wrong. */
  response: string;
  durationMs: number;
}

const lookupPublicOnly = guardedLookup(false);
const lookupAllowingPrivate = guardedLookup(true);

// Connections are kept for the next delivery to the same endpoint; a kept socket was checked when it connected.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * POSTs one attempt and reports what came back; never throws. Redirects are not followed (a 3xx is
 * an answer like any other non-2xx), and the whole exchange, connection to body, has one deadline.
 */
export async function postDelivery(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const url = new URL(options.endpoint);
  // Checked again here: the webhook may predate a change of WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS.
  if (!options.allowPrivate && url.protocol !== 'https:') {
    return { statusCode: 0, response: 'refused: the endpoint is not https://', durationMs: 0 };
  }
  const literal = refusedLiteral(url, options.allowPrivate);
  if (literal !== null) {
    return { statusCode: 0, response: new UnsafeAddressError(url.hostname, literal).message, durationMs: 0 };
  }
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(options.body)),
          'user-agent': 'suppression-list-webhooks',
        },
        signal: AbortSignal.timeout(timeoutMs),
        lookup: options.allowPrivate ? lookupAllowingPrivate : lookupPublicOnly,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = (): void => {
          resolve({
            statusCode: response.statusCode ?? 0,
            response: Buffer.concat(chunks).toString('utf8'),
            durationMs: elapsed(),
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_EXCERPT_BYTES) return;
          const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
          chunks.push(part);
          kept += part.length;
          // The status is what counts; the rest of a long body is not waited for.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ statusCode: 0, response: failureText(error, timeoutMs), durationMs: elapsed() });
    });
    request.end(options.body);
  });
}

function failureText(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  if (error instanceof UnsafeAddressError) return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
