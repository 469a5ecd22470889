import http from 'node:http';
import https from 'node:https';
import {
  guardedLookup,
  isPublicAddress,
  literalAddress,
  refusedLiteral,
  UnsafeAddressError,
  type EndpointPolicy,
} from './endpoint-safety.js';

/** How much of a response body an attempt keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const DELIVERY_TIMEOUT_MS = 10_000;

/** One attempt: where, what, and the destinations off the public internet the endpoint may have. */
export interface PostOptions extends EndpointPolicy {
  endpoint: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
}

export interface PostResult {
  /** 0 when no status came back: refused, not connected, or timed out. */
  statusCode: number;
  /**
   * The start of the response body, or what went wrong; for a destination off the public internet,
   * a note instead of the body and the error's code without its details.
   */
  response: string;
  durationMs: number;
}

/**
 * What a private destination's attempt records instead of its answer: the record is the customer's
 * to read, and an internal service's answer, or an error naming its address or its certificate's
 * names, is not theirs to see.
 */
export const PRIVATE_RESPONSE_NOTE = '(not kept: the endpoint is on a private address)';

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
  const refused = refusedLiteral(url, options);
  if (refused !== null) {
    return { statusCode: 0, response: new UnsafeAddressError(refused).message, durationMs: 0 };
  }
  // Where the request went: the socket's peer once it connects (a kept socket has one already).
  let peer = literalAddress(url) ?? undefined;
  const isPrivate = (...known: (string | undefined)[]): boolean => privateDestination([...known, peer]);
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
        lookup: guardedLookup(options),
      },
      (response) => {
        const hidden = isPrivate(response.socket.remoteAddress);
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = (): void => {
          resolve({
            statusCode: response.statusCode ?? 0,
            response: hidden ? PRIVATE_RESPONSE_NOTE : Buffer.concat(chunks).toString('utf8'),
            durationMs: elapsed(),
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_EXCERPT_BYTES) return;
          const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
          if (!hidden) chunks.push(part);
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
    request.on('socket', (socket) => {
      if (socket.remoteAddress !== undefined) peer = socket.remoteAddress;
      else socket.once('connect', () => (peer = socket.remoteAddress ?? peer));
    });
    request.on('error', (error: ConnectionError) => {
      const response = failureText(error, timeoutMs, isPrivate(...errorAddresses(error)));
      resolve({ statusCode: 0, response, durationMs: elapsed() });
    });
    request.end(options.body);
  });
}

/** A request's error: one connection's carries its address; a failed try of several addresses, each try's error. */
type ConnectionError = NodeJS.ErrnoException & { address?: string; errors?: readonly { address?: string }[] };

function errorAddresses(error: ConnectionError): (string | undefined)[] {
  return [error.address, ...(error.errors ?? []).map((attempt) => attempt.address)];
}

/**
 * Whether the destination is off the public internet, from the addresses known of it. With none
 * known, the name did not resolve, and the error can tell nothing of an address.
 */
function privateDestination(known: readonly (string | undefined)[]): boolean {
  return known.some((address) => address !== undefined && !isPublicAddress(address));
}

function failureText(error: ConnectionError, timeoutMs: number, isPrivate: boolean): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  if (error instanceof UnsafeAddressError) return error.message;
  if (isPrivate) return `${error.code ?? error.name} ${PRIVATE_RESPONSE_NOTE}`;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
