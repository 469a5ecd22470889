import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmails } from '../support/emails.js';
import { bounceEvent } from '../support/test-events.js';
import { sharedBuild } from '../support/shared-build.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';

const RATE_LIMIT = 20;
const EVENTS = 3000;

let database: TestDatabase;
let events: TestQueue;
const apis: ServiceProcess[] = [];
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  let dir: string;
  [dir, database, events] = await Promise.all([sharedBuild(), createTestDatabase(), createTestQueue(EVENTS_QUEUE)]);
  const built = { dir };
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: events.redisUrl,
    QUEUE_PREFIX: events.prefix,
    RATE_LIMIT_PER_SECOND: String(RATE_LIMIT),
  };
  const started = await Promise.all([
    ...[1, 2].map(() => startServiceProcess(built, 'api/main.js', { ...env, HOST: '127.0.0.1', PORT: '0' })),
    ...[1, 2, 3].map(() => startServiceProcess(built, 'workers/main.js', env)),
  ]);
  apis.push(...started.slice(0, 2));
  workers.push(...started.slice(2));
});

afterAll(async () => {
  await Promise.all([...apis, ...workers].map((service) => service.stop()));
  await events?.cleanup();
  await database?.drop();
});

describe('two API processes and three worker processes from the built entry points', () => {
  it('when one account sends twice its limit at once across both API processes, then the limit is served and no second serves more', async () => {
    const { token } = await newAccount(database.db);
    const urls = apis.map((api) => api.url as string);
    // As a load balancer would: until /ready, a process may not have reached Redis yet, and its
    // limiter lets requests through rather than refuse everyone.
    for (const url of urls) {
      await eventually(async () => (await fetch(`${url}/ready`)).status === 200, 20_000, `${url}/ready`);
    }

    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT * 2 }, (_, index) =>
        fetch(`${urls[index % 2]}/suppressions?limit=1`, { headers: { authorization: `Bearer ${token}` } }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
        ),
      ),
    );

    // The account's window is a second from its first request: requests that took longer than that
    // to arrive on a loaded machine may reach a second window, which serves its own limit.
    const windows = Math.max(1, Math.ceil((performance.now() - started) / 1000));
    const served = statuses.filter((status) => status === 200).length;
    expect(served).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(served).toBeLessThanOrEqual(RATE_LIMIT * windows);
    expect(statuses.filter((status) => status === 429)).toHaveLength(RATE_LIMIT * 2 - served);
    expect(new Set(apis.map((api) => api.url)).size).toBe(2);
  });

  it('when events are published, then across the three workers each lands exactly once and none fails', async () => {
    const { accountId } = await newAccount(database.db);
    const emails = uniqueEmails(EVENTS);
    const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
    try {
      await producer.publishMany(emails.map((email) => bounceEvent(accountId, email)));
    } finally {
      await producer.close();
    }

    const recorded = async () => {
      const { rows } = await database.db.query<{ events: string; distinct_events: string; entries: string }>({
        text: `SELECT (SELECT count(*) FROM suppression_events WHERE account_id = $1) AS events,
                      (SELECT count(DISTINCT event_id) FROM suppression_events WHERE account_id = $1) AS distinct_events,
                      (SELECT count(*) FROM suppressions WHERE account_id = $1) AS entries`,
        values: [accountId],
      });
      return rows[0];
    };
    await eventually(async () => Number((await recorded())?.events) >= EVENTS, 60_000, 'every event recorded');

    expect(await recorded()).toEqual({
      events: String(EVENTS),
      distinct_events: String(EVENTS),
      entries: String(EVENTS),
    });
    const open = async () => events.queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
    await eventually(
      async () => Object.values(await open()).every((count) => count === 0),
      30_000,
      'the queue drained',
    );
    expect(await events.queue.getJobCounts('completed', 'failed')).toEqual({ completed: EVENTS, failed: 0 });
    expect(workers.every((worker) => worker.child.exitCode === null)).toBe(true);
  });
});
