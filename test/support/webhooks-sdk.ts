import { expect } from 'vitest';
import { Resend } from 'resend';
import type { Database } from '../../src/db/database.js';
import { newAccount } from './accounts.js';

export const BOTH = ['suppression.added', 'suppression.removed'] as const;
export const EVENT_ID = /^msg_[0-9a-f]{32}$/;
export const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Resend's own SDK, pointed at the server at `url`, for a brand-new account. */
export async function newSdkClient(
  db: Database,
  url: string,
): Promise<{ resend: Resend; accountId: string; token: string }> {
  const key = await newAccount(db);
  const resend = new Resend(key.token, { baseUrl: url });
  return { resend, accountId: key.accountId, token: key.token };
}

/** The data of a successful SDK call; fails the test when the SDK reports an error. */
export function dataOf<T>(response: { data: T | null; error: unknown }): T {
  expect(response.error).toBeNull();
  expect(response.data).not.toBeNull();
  return response.data as T;
}

export function notFound(message: string) {
  return { statusCode: 404, name: 'not_found', message };
}

export function invalid(message: string) {
  return { statusCode: 422, name: 'validation_error', message };
}
