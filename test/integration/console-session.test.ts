import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import { newAccount } from '../support/accounts.js';
import { apiClient, expectError } from '../support/api-client.js';
import { consoleClient, consoleRequest, signIn } from '../support/console-client.js';
import { uniqueEmail } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { useTestApp } from '../support/test-app.js';

const app = useTestApp({ redis: 'live', trustProxy: 'loopback', console: { sessionTtlMs: 2 * 60 * 60 * 1000 } });

/** A new account, signed in to the console. */
async function signedIn() {
  const account = await newAccount(app.database.db);
  const session = await signIn(app.server.url, account.token);
  return { ...account, ...session, console: consoleClient(app.server.url, session) };
}

/** The suppressions of an account, through its bearer key. */
async function listed(token: string): Promise<string[]> {
  const response = await apiClient(app.server.url, token).get('/suppressions?limit=100');
  return response.body.data.map((entry: { email: string }) => entry.email);
}

describe('signing in', () => {
  it('when a full_access key signs in, then it answers 201 with the account and a CSRF token, and sets an HttpOnly, SameSite=Strict cookie for /console that expires', async () => {
    const account = await newAccount(app.database.db);
    const { response, setCookie } = await signIn(app.server.url, account.token);

    expect(response.body).toEqual({
      object: 'console_session',
      account: { id: account.accountId, name: account.account.name },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const lifetime = Date.parse(response.body.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(2 * 60 * 60 * 1000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(2 * 60 * 60 * 1000);
    expect(setCookie).toMatch(/^sl_console_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('Path=/console');
    expect(setCookie).toContain('Max-Age=7200');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain('Secure');
    expect(setCookie).not.toContain(account.token);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when the request came over HTTPS through a trusted proxy, then the cookie is Secure', async () => {
    const account = await newAccount(app.database.db);
    const origin = `https://${new URL(app.server.url).host}`;
    const { setCookie } = await signIn(app.server.url, account.token, { 'x-forwarded-proto': 'https', origin });

    expect(setCookie).toContain('Secure');
  });

  it('when the session is read back, then it answers the same account and CSRF token', async () => {
    const { console, csrfToken, accountId } = await signedIn();
    const response = await console.get('/console/session');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'console_session',
      account: { id: accountId },
      csrf_token: csrfToken,
    });
  });

  it('when an unknown key signs in, then it answers 403 invalid_api_key and sets no cookie', async () => {
    const response = await consoleRequest(app.server.url, null, 'POST', '/console/session', {
      body: { api_key: 'sl_' + 'A'.repeat(43) },
    });

    expectError(response, 403, 'invalid_api_key');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('when a sending_access key signs in, then it answers 401 restricted_api_key', async () => {
    const sending = await newAccount(app.database.db, 'sending_access');
    const response = await consoleRequest(app.server.url, null, 'POST', '/console/session', {
      body: { api_key: sending.token },
    });

    expectError(response, 401, 'restricted_api_key');
  });

  it.each([
    ['no body', undefined],
    ['an empty key', { api_key: '  ' }],
    ['a key that is not a string', { api_key: 42 }],
    ['an array', []],
  ])('when the body is %s, then it answers 422 naming what is wrong', async (_case, body) => {
    const response = await consoleRequest(app.server.url, null, 'POST', '/console/session', { body });

    expectError(response, 422, 'validation_error');
  });

  it('when the sign-in comes from a page of another origin, then it answers 403 and sets no cookie', async () => {
    const account = await newAccount(app.database.db);
    const response = await consoleRequest(app.server.url, null, 'POST', '/console/session', {
      body: { api_key: account.token },
      origin: 'https://evil.example',
    });

    expectError(response, 403, 'invalid_csrf_token');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('when an address fails to sign in more often than the limit allows, then it answers 429, even with a good key', async () => {
    const limited = await app.startApp({ redis: 'live', trustProxy: 'loopback', authFailuresPerSecond: 2 });
    const account = await newAccount(app.database.db);
    // An address of its own, so that no other test's failures count here.
    const client = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const attempt = (apiKey: string) =>
      consoleRequest(limited.url, null, 'POST', '/console/session', {
        body: { api_key: apiKey },
        headers: { 'x-forwarded-for': client },
      });

    const statuses: number[] = [];
    for (let tries = 0; tries < 5; tries++) statuses.push((await attempt('sl_' + 'B'.repeat(43))).status);
    const withGoodKey = await attempt(account.token);

    expect(statuses[0]).toBe(403);
    expect(statuses).toContain(429);
    expectError(withGoodKey, 429, 'rate_limit_exceeded');
  });
});

describe('the console API', () => {
  it('when a session adds and removes an address, then the bearer API sees it, and the removal names the key that signed in', async () => {
    const { console, token, accountId, keyId } = await signedIn();
    const email = uniqueEmail();

    expect((await console.post('/console/api/suppressions', { email })).status).toBe(201);
    expect(await listed(token)).toEqual([email]);
    expect((await console.delete(`/console/api/suppressions/${email}`)).status).toBe(200);

    expect(await listed(token)).toEqual([]);
    const removal = (await eventsForEmail(app.database.db, accountId, email)).find((event) => event.type === 'removal');
    expect(removal?.apiKeyId).toBe(keyId);
  });

  it('when a request that changes something has no X-CSRF-Token, a wrong one, or a foreign Origin, then it answers 403 and changes nothing', async () => {
    const { cookie, csrfToken, token } = await signedIn();
    const add = (options: { csrfToken?: string; origin?: string }) =>
      consoleRequest(app.server.url, cookie, 'POST', '/console/api/suppressions/batch/add', {
        body: { emails: [uniqueEmail()] },
        ...options,
      });

    expectError(await add({}), 403, 'invalid_csrf_token');
    expectError(
      await add({ csrfToken: csrfToken.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }),
      403,
      'invalid_csrf_token',
    );
    expectError(await add({ csrfToken: '' }), 403, 'invalid_csrf_token');
    expectError(await add({ csrfToken, origin: 'http://127.0.0.1:1' }), 403, 'invalid_csrf_token');
    expectError(await add({ csrfToken, origin: 'null' }), 403, 'invalid_csrf_token');
    expect(await listed(token)).toEqual([]);
    expect((await add({ csrfToken })).status).toBe(201);
  });

  it('when a read comes from a page of another site or origin, then it answers 403', async () => {
    const { cookie } = await signedIn();
    const read = (headers: Record<string, string>, origin?: string) =>
      consoleRequest(app.server.url, cookie, 'GET', '/console/api/suppressions', { headers, origin: origin ?? null });

    expect((await read({})).status).toBe(200);
    expect((await read({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expectError(await read({ 'sec-fetch-site': 'same-site' }), 403, 'invalid_csrf_token');
    expectError(await read({ 'sec-fetch-site': 'cross-site' }), 403, 'invalid_csrf_token');
    expectError(await read({}, 'http://localhost:9'), 403, 'invalid_csrf_token');
  });

  it('when there is no cookie or a made-up one, then it answers 401 invalid_session', async () => {
    expectError(await consoleRequest(app.server.url, null, 'GET', '/console/api/suppressions'), 401, 'invalid_session');
    for (const cookie of ['sl_console_session=' + 'A'.repeat(43), 'sl_console_session=short', 'other=1']) {
      expectError(
        await consoleRequest(app.server.url, cookie, 'GET', '/console/api/suppressions'),
        401,
        'invalid_session',
      );
    }
  });

  it('when the bearer API gets a session cookie and no key, then it refuses it: cookies mean nothing there', async () => {
    const { cookie } = await signedIn();
    const response = await apiClient(app.server.url, null).get('/suppressions', { headers: { cookie } });

    expectError(response, 401, 'missing_api_key');
  });
});

describe('the end of a session', () => {
  it('when the session signs out, then it answers 204, clears the cookie, and the old cookie gets 401 everywhere', async () => {
    const { console, cookie } = await signedIn();

    const out = await console.delete('/console/session');

    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^sl_console_session=;.*Path=\/console.*Expires=Thu, 01 Jan 1970/);
    expectError(
      await consoleRequest(app.server.url, cookie, 'GET', '/console/api/suppressions'),
      401,
      'invalid_session',
    );
    expectError(await console.get('/console/session'), 401, 'invalid_session');
  });

  it('when sign-out has no X-CSRF-Token, then it answers 403 and the session goes on', async () => {
    const { cookie, console } = await signedIn();

    expectError(await consoleRequest(app.server.url, cookie, 'DELETE', '/console/session'), 403, 'invalid_csrf_token');
    expect((await console.get('/console/session')).status).toBe(200);
  });

  it('when the key that signed in is revoked, then its session stops working at once', async () => {
    const { console, keyId } = await signedIn();
    expect((await console.get('/console/api/suppressions')).status).toBe(200);

    await revokeApiKey(app.database.db, keyId);

    expectError(await console.get('/console/api/suppressions'), 401, 'invalid_session');
  });

  it('when the session has expired, then it answers 401, and the next sign-in deletes its row', async () => {
    const { console, response } = await signedIn();
    await app.database.db.query({
      text: "UPDATE console_sessions SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second' WHERE csrf_token = $1",
      values: [response.body.csrf_token],
    });

    expectError(await console.get('/console/session'), 401, 'invalid_session');
    await signedIn();
    const { rows } = await app.database.db.query({
      text: 'SELECT count(*)::int AS left FROM console_sessions WHERE expires_at <= now()',
    });
    expect(rows[0]).toEqual({ left: 0 });
  });
});

describe('the pages', () => {
  it('when the console was not built, then /console answers 404 saying how to build it', async () => {
    const response = await consoleRequest(app.server.url, null, 'GET', '/console');

    expectError(response, 404, 'not_found');
    expect(response.body.message).toContain('npm run build');
  });
});
