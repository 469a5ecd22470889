import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newAccount } from '../support/accounts.js';
import { apiClient, type ApiClient } from '../support/api-client.js';
import { metricValue } from '../support/metric-value.js';
import { MAX_LAG_MS, useReplicatedApp, type ReplicaApp } from '../support/replicated-app.js';
import { createTestRedis } from '../support/test-redis.js';

const setup = useReplicatedApp();
let accountId: string;
let token: string;
let api: ApiClient;

/** Reads served by the replica and by the primary, as the app's metrics count them. */
async function served(app: ReplicaApp): Promise<{ replica: number; primary: number }> {
  return {
    replica: (await metricValue(app.server, 'db_reads_total', { target: 'replica' })) ?? 0,
    primary: (await metricValue(app.server, 'db_reads_total', { target: 'primary' })) ?? 0,
  };
}

async function readiness(app: ReplicaApp) {
  return apiClient(app.server.url, null).get('/ready');
}

/** Polls until `check` holds, and returns how long that took. */
async function within(ms: number, what: string, check: () => Promise<boolean> | boolean): Promise<number> {
  const startedAt = performance.now();
  while (!(await check())) {
    if (performance.now() - startedAt > ms) throw new Error(`${what} not within ${ms} ms`);
    await sleep(20);
  }
  return performance.now() - startedAt;
}

const replicaOk = async () => (await readiness(setup.app)).body.checks.replicas?.[0]?.state === 'ok';

/** Writes an entry on the primary without the API, so no mark says the account wrote. */
async function addBehindTheApi(email: string, account = accountId): Promise<void> {
  await addSuppressions(setup.primary, account, [{ id: newId(), email, origin: 'manual', sourceId: null }]);
}

/** Whether the replica holds the account's entry for this address. */
async function onReplica(email: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: setup.replicaUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM suppressions WHERE account_id = $1 AND email = $2', [
      accountId,
      email,
    ]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  ({ accountId, token } = await newAccount(setup.primary));
  api = apiClient(setup.app.server.url, token);
});

describe('reads from a streaming replica', () => {
  it('when the replica has replayed everything, then lookups, checks, the list and the export are served by it', async () => {
    await addBehindTheApi('caught-up@example.com');
    await setup.cluster.caughtUp();
    await within(2000, 'the replica in use', replicaOk);
    const before = await served(setup.app);
    expect((await api.get('/suppressions/caught-up@example.com')).status).toBe(200);
    const check = await api.post('/suppressions/check', { emails: ['caught-up@example.com', 'clean@example.com'] });
    expect(check.body.suppressed.map((entry: { email: string }) => entry.email)).toEqual(['caught-up@example.com']);
    expect((await api.get('/suppressions?email=caught-up@example.com')).body.data).toHaveLength(1);
    const exported = await fetch(`${setup.app.server.url}/suppressions/export?format=ndjson`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await exported.text()).toContain('caught-up@example.com');
    const after = await served(setup.app);
    expect(after.replica - before.replica).toBe(4);
    expect(after.primary - before.primary).toBe(0);
  });

  it('when the primary has written nothing for longer than the bound, then the caught-up replica has lag 0 and stays in use', async () => {
    // What pg_last_xact_replay_timestamp() would say: the replica's last replayed commit is old.
    const replayAgeMs = async () => {
      const client = new pg.Client({ connectionString: setup.replicaUrl });
      await client.connect();
      const { rows } = await client.query<{ ms: number }>(
        'SELECT extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 AS ms',
      );
      await client.end();
      return Number(rows[0]?.ms);
    };
    await within(10_000, 'an idle primary', async () => (await replayAgeMs()) > 2 * MAX_LAG_MS);
    const ready = await readiness(setup.app);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.replicas).toEqual([
      { replica: expect.stringMatching(/sl_replicas$/), state: 'ok', lag_ms: 0 },
    ]);
    const before = await served(setup.app);
    expect((await api.get('/suppressions/caught-up@example.com')).status).toBe(200);
    expect((await served(setup.app)).replica - before.replica).toBe(1);
  });

  it('when an account adds an address through the API with the replica’s replay paused, then its own lookups and checks see it at once, in every API process', async () => {
    const second = await setup.startApp({ replicas: true });
    const secondApi = apiClient(second.server.url, token);
    await setup.cluster.pauseReplay();
    try {
      expect((await api.post('/suppressions', { email: 'just-added@example.com' })).status).toBe(201);
      const [lookup, check, elsewhere] = await Promise.all([
        api.get('/suppressions/just-added@example.com'),
        api.post('/suppressions/check', { emails: ['just-added@example.com'] }),
        secondApi.get('/suppressions/just-added@example.com'),
      ]);
      // The replica was still within the bound, so only the account's mark sent these to the primary.
      expect(setup.app.replicas?.anyUsable()).toBe(true);
      expect(second.replicas?.anyUsable()).toBe(true);
      expect(lookup.status).toBe(200);
      expect(check.body.suppressed).toHaveLength(1);
      expect(elsewhere.status).toBe(200);
      expect(await onReplica('just-added@example.com')).toBe(false);
      const ttl = await setup.redis.client.pttl(`${setup.redis.keyPrefix}recent-write:${accountId}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(MAX_LAG_MS + 200 + 500);
      expect(await metricValue(setup.app.server, 'db_reads_total', { reason: 'recent_write' })).toBeGreaterThanOrEqual(
        2,
      );
    } finally {
      await setup.cluster.resumeReplay();
    }
  });

  it('when replay is paused and an entry is written behind the API’s back, then the replica answers only while within the bound, and the primary within a second after', async () => {
    // An account no write through the API has marked (as the previous story's is, for a while):
    // only lag decides here.
    const unmarked = await newAccount(setup.primary);
    const unmarkedApi = apiClient(setup.app.server.url, unmarked.token);
    await setup.cluster.caughtUp();
    await within(2000, 'the replica in use', replicaOk);
    await setup.cluster.pauseReplay();
    const answers: { sentAt: number; status: number }[] = [];
    let written = 0;
    try {
      await addBehindTheApi('behind@example.com', unmarked.accountId);
      written = performance.now();
      while (performance.now() < written + MAX_LAG_MS + 1500) {
        const sentAt = performance.now();
        answers.push({ sentAt, status: (await unmarkedApi.get('/suppressions/behind@example.com')).status });
        await sleep(20);
      }
      const ready = await readiness(setup.app);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.replicas[0]).toMatchObject({ state: 'lagging', lag_ms: expect.any(Number) });
      expect(ready.body.checks.replicas[0].lag_ms).toBeGreaterThan(MAX_LAG_MS);
      expect(await metricValue(setup.app.server, 'db_replica_lag_seconds')).toBeGreaterThan(MAX_LAG_MS / 1000);
    } finally {
      await setup.cluster.resumeReplay();
    }
    const stale = answers.filter((answer) => answer.status === 404);
    expect(stale.length).toBeGreaterThan(0);
    // No answer from the replica for a request sent past the bound: it lacked the entry.
    for (const answer of stale) expect(answer.sentAt).toBeLessThan(written + MAX_LAG_MS);
    const fresh = answers.filter((answer) => answer.sentAt >= written + MAX_LAG_MS);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 404)).toBe(true);
  });

  it('when the replica is stopped under a stream of lookups, then none fails, reads move to the primary within a second, and /ready stays 200 showing it down', async () => {
    await setup.cluster.caughtUp();
    await within(2000, 'the replica in use', replicaOk);
    const statuses: number[] = [];
    let running = true;
    const stream = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (running) statuses.push((await api.get('/suppressions/caught-up@example.com')).status);
      }),
    );
    try {
      await sleep(300);
      await setup.cluster.stopReplica();
      const detectedMs = await within(1000, 'the replica shown down', async () => {
        const ready = await readiness(setup.app);
        return ready.status === 200 && ready.body.checks.replicas[0].state === 'down';
      });
      expect(detectedMs).toBeLessThan(1000);
      const afterDetection = await served(setup.app);
      await sleep(500);
      expect((await served(setup.app)).replica).toBe(afterDetection.replica);
      expect((await served(setup.app)).primary).toBeGreaterThan(afterDetection.primary);
    } finally {
      running = false;
      await stream;
    }
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const ready = await readiness(setup.app);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: 'ok', redis: 'ok' });
    expect(ready.body.checks.replicas).toEqual([{ replica: expect.any(String), state: 'down', lag_ms: null }]);
    expect(await metricValue(setup.app.server, 'db_replica_up')).toBe(0);
  });

  it('when the stopped replica is started again, then reads go to it again', async () => {
    await setup.cluster.startReplica();
    await within(10_000, 'the replica in use again', replicaOk);
    expect(await metricValue(setup.app.server, 'db_replica_up')).toBe(1);
    const before = await served(setup.app);
    expect((await api.get('/suppressions/caught-up@example.com')).status).toBe(200);
    expect((await served(setup.app)).replica - before.replica).toBe(1);
  });

  it('when DATABASE_READ_URL is unset, then nothing polls, nothing is marked in Redis and /ready and the metrics show no replica', async () => {
    const monitors = async () =>
      (
        await setup.primary.query<{ n: number }>({
          text: "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE '%-replica-monitor'",
        })
      ).rows[0]?.n;
    const pollingBefore = await monitors();
    const redis = await createTestRedis();
    const plain = await setup.startApp({ replicas: false, redis });
    expect(await monitors()).toBe(pollingBefore);
    const plainApi = apiClient(plain.server.url, token);
    expect((await plainApi.post('/suppressions', { email: 'unreplicated@example.com' })).status).toBe(201);
    expect((await plainApi.get('/suppressions/unreplicated@example.com')).status).toBe(200);
    expect(await redis.client.keys(`${redis.keyPrefix}recent-write:*`)).toEqual([]);
    expect((await readiness(plain)).body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    expect(await metricValue(plain.server, 'db_replica_up')).toBeUndefined();
    expect(await metricValue(plain.server, 'db_reads_total')).toBeUndefined();
  });
});
