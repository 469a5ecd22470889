import { expect } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A small HTTP client bound to one server and one token, for tests that speak raw HTTP. */
export function apiClient(baseUrl: string, token: string | null) {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.token === undefined ? token : options.token;
    if (bearer !== null) headers['authorization'] = `Bearer ${bearer}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }
  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, body: unknown, options?: RequestOptions) =>
      request<T>('POST', path, { ...options, body }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Adds addresses one request at a time so that their ids (and so their order) are distinct. */
export async function addInOrder(api: ApiClient, emails: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    const response = await api.post('/suppressions', { email });
    expect(response.status).toBe(201);
    ids.push(response.body.id);
  }
  return ids;
}

/** The one error shape: exactly `{statusCode, name, message}`, as JSON, with statusCode equal to the HTTP status. */
export function expectError(response: ApiResponse, status: number, name: string): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.body).toStrictEqual({ statusCode: status, name, message: expect.any(String) });
  expect(response.body.message.length).toBeGreaterThan(0);
}
