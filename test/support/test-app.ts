import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp, type AppOptions } from '../../api/app.js';
import { listen, type RunningServer } from '../../api/server.js';
import { issueApiKey, type IssuedApiKey } from '../../src/db/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import type { Permission } from '../../src/domain/api-key-token.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** The real app on a free port of 127.0.0.1. */
export async function startTestApp(db: Database, options: Partial<AppOptions> = {}): Promise<RunningServer> {
  return listen(createApp({ db, logger: createLogger('silent'), ...options }), '127.0.0.1', 0);
}

export interface TestApp {
  readonly database: TestDatabase;
  readonly server: RunningServer;
}

/** For the whole test file: a database of its own, and the real app serving it on a free port. */
export function useTestApp(): TestApp {
  const app = {} as { database: TestDatabase; server: RunningServer };
  beforeAll(async () => {
    app.database = await createTestDatabase();
    app.server = await startTestApp(app.database.db);
  });
  afterAll(async () => {
    await app.server?.close();
    await app.database?.drop();
  });
  return app;
}

/** A new account of its own, with one key. */
export async function createAccountKey(db: Database, permission: Permission = 'full_access'): Promise<IssuedApiKey> {
  return issueApiKey(db, { accountName: `account-${randomUUID()}`, permission, name: 'test' });
}

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

/** Distinct addresses for one test, so tests never share data. */
export function uniqueEmails(count: number, domain = 'example.com'): string[] {
  const tag = randomUUID().slice(0, 8);
  return Array.from({ length: count }, (_, index) => `user${index}.${tag}@${domain}`);
}
