import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmail } from '../support/emails.js';
import { sharedBuild } from '../support/shared-build.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { bounceEvent } from '../support/test-events.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';

const METRICS_TOKEN = 'metrics-token-for-the-roles-test';

let dir: string;
let database: TestDatabase;
/** A queue prefix per test: each test's process is the only one on its queues. */
let workersQueue: TestQueue;
let apiQueue: TestQueue;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  [dir, database, workersQueue, apiQueue] = await Promise.all([
    sharedBuild(),
    createTestDatabase(),
    createTestQueue(EVENTS_QUEUE),
    createTestQueue(EVENTS_QUEUE),
  ]);
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await workersQueue?.cleanup();
  await apiQueue?.cleanup();
  await database?.drop();
});

async function start(role: string, events: TestQueue): Promise<ServiceProcess> {
  const service = await startServiceProcess({ dir }, 'cli/main.js start', {
    ROLE: role,
    DATABASE_URL: database.url,
    REDIS_URL: events.redisUrl,
    QUEUE_PREFIX: events.prefix,
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_TOKEN,
  });
  services.push(service);
  return service;
}

async function publishBounce(events: TestQueue, accountId: string): Promise<string> {
  const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
  try {
    return await producer.publish(bounceEvent(accountId, uniqueEmail()));
  } finally {
    await producer.close();
  }
}

async function recordedEvents(accountId: string): Promise<number> {
  const { rows } = await database.db.query<{ count: string }>({
    text: 'SELECT count(*) FROM suppression_events WHERE account_id = $1',
    values: [accountId],
  });
  return Number(rows[0]?.count);
}

describe('suppression-list start, by ROLE', () => {
  it('when ROLE=workers, then HOST:PORT serves /health, /ready and /metrics behind METRICS_TOKEN and nothing of the API, and events are applied', async () => {
    const workers = await start('workers', workersQueue);
    const url = workers.url as string;
    const { accountId, token } = await newAccount(database.db);

    const health = await fetch(`${url}/health`);
    const ready = await fetch(`${url}/ready`);
    const unauthorized = await fetch(`${url}/metrics`);
    const metrics = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const check = await fetch(`${url}/suppressions/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [uniqueEmail()] }),
    });
    const docs = await fetch(`${url}/openapi.json`);

    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } },
    });
    expect(unauthorized.status).toBe(401);
    expect(metrics.status).toBe(200);
    const exposition = await metrics.text();
    expect(exposition).toContain('db_pool_');
    expect(exposition).toContain('process_cpu_seconds_total');
    expect(check.status).toBe(404);
    expect(docs.status).toBe(404);

    expect(await workersQueue.queue.getWorkersCount()).toBeGreaterThan(0);
    await publishBounce(workersQueue, accountId);
    await eventually(async () => (await recordedEvents(accountId)) === 1, 10_000, 'the event applied');
    const after = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(await after.text()).toMatch(/^suppression_events_processed_total\{[^}]*outcome="suppressed"[^}]*\} 1$/m);
  });

  it('when ROLE=api, then the API answers and no worker takes the events published meanwhile', async () => {
    const api = await start('api', apiQueue);
    const url = api.url as string;
    const { accountId, token } = await newAccount(database.db);

    const check = await fetch(`${url}/suppressions/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [uniqueEmail()] }),
    });
    const jobId = await publishBounce(apiQueue, accountId);

    // The process is ready, so whatever it starts has started: no worker is connected to the queue
    // (the workers' test shows the count sees one), and the event waits untaken.
    expect(await apiQueue.queue.getWorkersCount()).toBe(0);
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ object: 'suppression_check', checked: 1, suppressed: [] });
    expect(await recordedEvents(accountId)).toBe(0);
    expect(api.logs.some((line) => String(line['msg']).endsWith('workers running'))).toBe(false);
    expect(await apiQueue.queue.getJobState(jobId)).toBe('waiting');
  });
});
