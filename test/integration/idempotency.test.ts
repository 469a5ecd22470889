import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { expectError } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp({ redis: 'live', rateLimitPerSecond: 10_000 });
/** The same app, with a Redis that never answers. */
let unreachable: RunningServer;

beforeAll(async () => {
  unreachable = await app.startApp({ redis: 'unreachable', rateLimitPerSecond: 10_000 });
});

function withKey(key: string) {
  return { headers: { 'idempotency-key': key } };
}

describe('replay', () => {
  it.each([
    { path: '/suppressions', body: () => ({ email: uniqueEmail() }), status: 201 },
    { path: '/suppressions/batch/add', body: () => ({ emails: uniqueEmails(3) }), status: 201 },
    { path: '/suppressions/batch/remove', body: () => ({ emails: uniqueEmails(2) }), status: 200 },
  ])(
    'when POST $path is repeated with the same key and body, then the first response is replayed',
    async ({ path, body, status }) => {
      const { api } = await newApiAccount(app);
      const key = randomUUID();
      const payload = body();
      const first = await api.post(path, payload, withKey(key));
      expect(first.status).toBe(status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const second = await api.post(path, payload, withKey(key));
      expect(second.status).toBe(status);
      expect(second.body).toStrictEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    },
  );

  it('when a replayed add is repeated, then the work is not done again (the list holds one entry)', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const email = uniqueEmail();
    const first = await api.post('/suppressions', { email }, withKey(key));
    await api.delete(`/suppressions/${first.body.id}`);
    const replay = await api.post('/suppressions', { email }, withKey(key));

    expect(replay.body).toStrictEqual(first.body);
    expect((await api.get(`/suppressions/${email}`)).status).toBe(404);
  });

  it('when a check is repeated with the same key after its entry was removed, then the first answer, entry and all, is replayed', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const [listed, clean] = uniqueEmails(2);
    const added = await api.post('/suppressions', { email: listed });
    const payload = { emails: [listed, clean, 'not-an-address'] };
    const first = await api.post('/suppressions/check', payload, withKey(key));
    await api.delete(`/suppressions/${added.body.id}`);
    const replay = await api.post('/suppressions/check', payload, withKey(key));

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ checked: 2, suppressed: [{ id: added.body.id, email: listed }] });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toStrictEqual(first.body);
    expect((await api.post('/suppressions/check', payload)).body).toMatchObject({ suppressed: [] });
  });

  it('when the same body comes with its keys in another order, then it is still the same request', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const emails = uniqueEmails(2);
    const first = await api.request('POST', '/suppressions/batch/remove', {
      rawBody: JSON.stringify({ emails, ids: undefined }),
      ...withKey(key),
    });
    const second = await api.request('POST', '/suppressions/batch/remove', {
      rawBody: `{ "emails" : ${JSON.stringify(emails)} }`,
      ...withKey(key),
    });

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when the first answer was a 4xx, then it is stored and replayed', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const first = await api.post('/suppressions', { email: 'not-an-address' }, withKey(key));

    expectError(first, 422, 'validation_error');
    const second = await api.post('/suppressions', { email: 'not-an-address' }, withKey(key));
    expectError(second, 422, 'validation_error');
    expect(second.body).toStrictEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when a finished response is stored, then it is kept for 24 hours under the account', async () => {
    const { api, accountId } = await newApiAccount(app);
    const key = randomUUID();
    await api.post('/suppressions', { email: uniqueEmail() }, withKey(key));
    const ttl = await app.redis.ttl(`${app.redisKeyPrefix}idempotency:${accountId}:${key}`);

    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });

  it('when no key is sent, then nothing is replayed', async () => {
    const { api } = await newApiAccount(app);
    const emails = [uniqueEmail()];
    const first = await api.post('/suppressions/batch/add', { emails });
    const second = await api.post('/suppressions/batch/add', { emails });

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('409 invalid_idempotent_request', () => {
  it('when the same key comes with another body, then it answers 409 invalid_idempotent_request', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();

    expect((await api.post('/suppressions', { email: uniqueEmail() }, withKey(key))).status).toBe(201);
    expectError(
      await api.post('/suppressions', { email: uniqueEmail() }, withKey(key)),
      409,
      'invalid_idempotent_request',
    );
  });

  it('when the same key comes on another endpoint, then it answers 409 invalid_idempotent_request', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const emails = [uniqueEmail()];

    expect((await api.post('/suppressions/batch/add', { emails }, withKey(key))).status).toBe(201);
    expectError(
      await api.post('/suppressions/batch/remove', { emails }, withKey(key)),
      409,
      'invalid_idempotent_request',
    );
  });
});

describe('409 concurrent_idempotent_requests', () => {
  it('when two requests with one key race, then one runs and the other is refused or replays it', async () => {
    const { api } = await newApiAccount(app);
    const key = randomUUID();
    const payload = { emails: uniqueEmails(100) };
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => api.post('/suppressions/batch/add', payload, withKey(key))),
    );
    const original = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const replays = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
    const refused = responses.filter((r) => r.status === 409);

    expect(original).toHaveLength(1);
    expect(original.length + replays.length + refused.length).toBe(responses.length);
    for (const replay of replays) expect(replay.body).toStrictEqual(original[0]!.body);
    for (const response of refused) expectError(response, 409, 'concurrent_idempotent_requests');
    expect(original[0]!.body.data).toHaveLength(100);
  });

  it('when the key is marked running (first request in flight or crashed), then it answers 409 until the marker expires', async () => {
    const { api, accountId } = await newApiAccount(app);
    const key = randomUUID();
    const payload = { email: uniqueEmail() };

    expect((await api.post('/suppressions', payload, withKey(key))).status).toBe(201);
    // Put the record back to the state it had while the first request ran.
    const redisKey = `${app.redisKeyPrefix}idempotency:${accountId}:${key}`;
    const stored = JSON.parse((await app.redis.get(redisKey))!);
    await app.redis.set(redisKey, JSON.stringify({ state: 'running', fingerprint: stored.fingerprint }), 'EX', 60);
    expectError(await api.post('/suppressions', payload, withKey(key)), 409, 'concurrent_idempotent_requests');
    // Another body is still told apart from a concurrent retry.
    expectError(
      await api.post('/suppressions', { email: uniqueEmail() }, withKey(key)),
      409,
      'invalid_idempotent_request',
    );
    // Once the marker is gone (its TTL ran out), the request runs afresh.
    await app.redis.del(redisKey);
    const again = await api.post('/suppressions', payload, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('400 invalid_idempotency_key', () => {
  it.each([
    { label: 'empty', key: '' },
    { label: '257 characters', key: 'k'.repeat(257) },
  ])('when the key is $label, then it answers 400 invalid_idempotency_key', async ({ key }) => {
    const { api } = await newApiAccount(app);
    expectError(
      await api.post('/suppressions', { email: uniqueEmail() }, withKey(key)),
      400,
      'invalid_idempotency_key',
    );
  });

  it('when the key is 256 characters, then it is accepted', async () => {
    const { api } = await newApiAccount(app);

    expect((await api.post('/suppressions', { email: uniqueEmail() }, withKey('k'.repeat(256)))).status).toBe(201);
  });
});

describe('scoping', () => {
  it('when two accounts use the same key, then each has its own request', async () => {
    const key = randomUUID();
    const one = await newApiAccount(app);
    const two = await newApiAccount(app);
    const first = await one.api.post('/suppressions', { email: uniqueEmail() }, withKey(key));
    const second = await two.api.post('/suppressions', { email: uniqueEmail() }, withKey(key));

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('when the key is sent on a GET, then it is ignored', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.get('/suppressions', withKey(''));

    expect(response.status).toBe(200);
  });
});

describe('Redis unreachable', () => {
  it('when a key is sent and Redis cannot be reached, then it answers 503 service_unavailable', async () => {
    const { api } = await newApiAccount(app, unreachable);

    expectError(
      await api.post('/suppressions', { email: uniqueEmail() }, withKey(randomUUID())),
      503,
      'service_unavailable',
    );
  });

  it('when no key is sent, then the request is served without Redis', async () => {
    const { api } = await newApiAccount(app, unreachable);

    expect((await api.post('/suppressions', { email: uniqueEmail() })).status).toBe(201);
  });
});
