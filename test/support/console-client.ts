import { expect } from 'vitest';
import type { ApiResponse } from './api-client.js';

export interface ConsoleSignIn {
  response: ApiResponse;
  /** The `Set-Cookie` header as sent. */
  setCookie: string;
  /** `name=value`, as a browser sends it back in `Cookie`. */
  cookie: string;
  csrfToken: string;
}

/** Signs in to the console of `baseUrl` with an API key, as its page does (same origin). */
export async function signIn(
  baseUrl: string,
  apiKey: string,
  headers: Record<string, string> = {},
): Promise<ConsoleSignIn> {
  const response = await consoleRequest(baseUrl, null, 'POST', '/console/session', {
    body: { api_key: apiKey },
    headers,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { response, setCookie, cookie: setCookie.split(';')[0]!, csrfToken: response.body.csrf_token };
}

export interface ConsoleRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as `X-CSRF-Token`. */
  csrfToken?: string;
  /** `Origin`: the server's own unless given (here or in `headers`); `null` sends none. */
  origin?: string | null;
}

/** One request with a session cookie (or none), as the console's page would make it. */
export async function consoleRequest(
  baseUrl: string,
  cookie: string | null,
  method: string,
  path: string,
  options: ConsoleRequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (cookie !== null) headers['cookie'] = cookie;
  if (options.csrfToken !== undefined) headers['x-csrf-token'] = options.csrfToken;
  const origin = options.origin === undefined ? new URL(baseUrl).origin : options.origin;
  if (origin !== null) headers['origin'] ??= origin;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // A page or a CSV file: kept as text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A signed-in session's client: its cookie and CSRF token on every request. */
export function consoleClient(baseUrl: string, session: { cookie: string; csrfToken: string }) {
  return {
    get: (path: string, options: ConsoleRequestOptions = {}) =>
      consoleRequest(baseUrl, session.cookie, 'GET', path, options),
    post: (path: string, body: unknown, options: ConsoleRequestOptions = {}) =>
      consoleRequest(baseUrl, session.cookie, 'POST', path, { csrfToken: session.csrfToken, ...options, body }),
    delete: (path: string, options: ConsoleRequestOptions = {}) =>
      consoleRequest(baseUrl, session.cookie, 'DELETE', path, { csrfToken: session.csrfToken, ...options }),
  };
}
