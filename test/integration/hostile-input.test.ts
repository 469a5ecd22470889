import { randomUUID } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import type { ApiResponse } from '../support/api-client.js';
import { apiClientFrom, freshClientAddress } from '../support/client-address.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const FAILURE_LIMIT = 5;

const app = useTestApp({ redis: 'live', rateLimitPerSecond: 1000, authFailuresPerSecond: 1000 });
/** The same app with a client limit low enough to reach. */
let limited: RunningServer;

beforeAll(async () => {
  limited = await app.startApp({ redis: 'live', rateLimitPerSecond: 1000, authFailuresPerSecond: FAILURE_LIMIT });
});

/** POST /suppressions with a body sent as it is, under the `Content-Encoding` given. */
function postEncoded(token: string, encoding: string, body: Buffer): Promise<Response> {
  return fetch(`${app.server.url}/suppressions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': encoding },
    body,
  });
}

describe('bodies whose Content-Encoding does not decode', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'when a body sent as %s does not decode, then it answers 422 validation_error saying so, and writes nothing',
    async (encoding) => {
      const { token, api } = await newApiAccount(app);
      const email = uniqueEmail();
      const response = await postEncoded(token, encoding, Buffer.from(JSON.stringify({ email })));
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        statusCode: 422,
        name: 'validation_error',
        message: 'The request body does not decode as its `Content-Encoding` says.',
      });
      const list = await api.get('/suppressions');
      expect(list.body.data).toEqual([]);
    },
  );

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const)('when a %s body decodes, then it is read as JSON like any other', async (encoding, compress) => {
    const { token, api } = await newApiAccount(app);
    const email = uniqueEmail();
    const response = await postEncoded(token, encoding, compress(Buffer.from(JSON.stringify({ email }))));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ object: 'suppression' });
    const stored = await api.get(`/suppressions/${encodeURIComponent(email)}`);
    expect(stored.body).toMatchObject({ object: 'suppression', email });
  });
});

describe('bodies nested far deeper than any valid one', () => {
  it('when a body 4,000 levels deep comes with an Idempotency-Key, then it answers 422 like the same body without one', async () => {
    const { api } = await newApiAccount(app);
    const rawBody = `{"email":${'['.repeat(4000)}${']'.repeat(4000)}}`;
    const withKey = await api.request('POST', '/suppressions', {
      rawBody,
      headers: { 'idempotency-key': randomUUID() },
    });
    const withoutKey = await api.request('POST', '/suppressions', { rawBody });
    expect(withKey.status).toBe(422);
    expect(withKey.body).toEqual(withoutKey.body);
    expect(withKey.body.name).toBe('validation_error');
  });
});

describe('failed authentications from one client address', () => {
  it(`when one client sends more than ${FAILURE_LIMIT} made-up keys in a second, then the rest answer 429 with retry-after before any lookup, and a key in use is still served`, async () => {
    const client = freshClientAddress();
    const known = apiClientFrom(client, limited.url, (await newApiAccount(app, limited)).token);
    expect((await known.get('/suppressions')).status).toBe(200);
    const statuses: number[] = [];
    let refused: ApiResponse | undefined;
    for (let attempt = 0; attempt < FAILURE_LIMIT + 3; attempt += 1) {
      const response = await apiClientFrom(client, limited.url, generateToken()).get('/suppressions');
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }

    expect(statuses.slice(0, FAILURE_LIMIT)).toEqual(Array(FAILURE_LIMIT).fill(403));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.slice(statuses.indexOf(429)).every((status) => status === 429)).toBe(true);
    expect(refused?.body.name).toBe('rate_limit_exceeded');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Admitted from the key cache: the address's failures do not touch it.
    expect((await known.get('/suppressions')).status).toBe(200);
  });

  it(`when one client uses more than ${FAILURE_LIMIT} valid keys it has not used before, in one second, then none is refused`, async () => {
    const client = freshClientAddress();
    const accounts = await Promise.all(Array.from({ length: FAILURE_LIMIT * 3 }, () => newApiAccount(app, limited)));
    const statuses = await Promise.all(
      accounts.map(async ({ token }) => (await apiClientFrom(client, limited.url, token).get('/suppressions')).status),
    );
    expect(statuses).toEqual(Array(FAILURE_LIMIT * 3).fill(200));
  });

  it('when a request has no key at all, then it counts against its client address too', async () => {
    const client = freshClientAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < FAILURE_LIMIT + 2; attempt += 1) {
      statuses.push((await apiClientFrom(client, limited.url, null).get('/suppressions')).status);
    }

    expect(statuses.slice(0, FAILURE_LIMIT)).toEqual(Array(FAILURE_LIMIT).fill(401));
    expect(statuses).toContain(429);
  });
});

describe('addresses that lower-casing would turn into others', () => {
  it('when an address has a Kelvin sign, then it is refused with 422 and no ASCII address is suppressed in its place', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/suppressions', { email: '\u212Aate@example.com' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: '`email` is not a valid email address.',
    });
    expect((await api.get('/suppressions/kate@example.com')).status).toBe(404);
  });
});
