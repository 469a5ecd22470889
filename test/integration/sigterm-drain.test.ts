import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { PRODUCTION_DEFAULTS, startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { sharedBuild } from '../support/shared-build.js';
import { sleep } from '../support/sleep.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { bounceEvent } from '../support/test-events.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';

/**
 * Large checks at once, held in flight at the signal: each waits on the lock with a connection of
 * the pool (`HELD_POOL_SIZE`, with room for the workers' own), so none waits for a connection.
 */
const CHECKS = 12;
const HELD_POOL_SIZE = 30;
const CHECK_SIZE = 1000;
/**
 * Events a stream lets wait in the queue at most: the workers always have some to take, and a worker
 * started again afterwards has a few hundred to apply rather than all a free-running stream published.
 */
const BACKLOG = 200;
const SHUTDOWN_DELAY_MS = 1000;

type Role = 'all' | 'api' | 'workers';

let dir: string;
let database: TestDatabase;
/** Each test's events queue: its processes see no other test's jobs. */
const queues = {} as Record<Role, TestQueue>;
/** The process each test stops. */
const underTest = {} as Record<Role, ServiceProcess>;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  let all: TestQueue, api: TestQueue, workers: TestQueue;
  [dir, database, all, api, workers] = await Promise.all([
    sharedBuild(),
    createTestDatabase(),
    createTestQueue(EVENTS_QUEUE),
    createTestQueue(EVENTS_QUEUE),
    createTestQueue(EVENTS_QUEUE),
  ]);
  Object.assign(queues, { all, api, workers });
  // The three start side by side, as a start is mostly loading modules; each waits for its test.
  [underTest.all, underTest.api, underTest.workers] = await Promise.all([
    // The checks wait on a lock for as long as the machine takes to send them all; their statements
    // must outlast that wait, not the default 5 s.
    start(queues.all, { DATABASE_STATEMENT_TIMEOUT_MS: '60000', DATABASE_POOL_SIZE: String(HELD_POOL_SIZE) }),
    start(queues.api, { ROLE: 'api', SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS) }),
    start(queues.workers, { ROLE: 'workers' }),
  ]);
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop('SIGKILL')));
  await Promise.all(Object.values(queues).map((queue) => queue.cleanup()));
  await database?.drop();
});

async function start(events: TestQueue, env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess({ dir }, 'cli/main.js start', {
    DATABASE_URL: database.url,
    REDIS_URL: events.redisUrl,
    QUEUE_PREFIX: events.prefix,
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_SECOND: '100000',
    ...env,
  });
  services.push(service);
  return service;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own; rejects if the connection is refused or cut. */
function request(url: string, options: http.RequestOptions, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { agent: false, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

function check(url: string, token: string, emails: readonly string[]): Promise<Answer> {
  return request(
    `${url}/suppressions/check`,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
    JSON.stringify({ emails }),
  );
}

/** A check's answer, whole: a 200 whose JSON parses and counts every address sent. */
function expectWholeCheck(answer: Answer): void {
  expect(answer.status).toBe(200);
  expect((JSON.parse(answer.body) as { checked: number }).checked).toBe(CHECK_SIZE);
}

/**
 * An import whose list arrives a line every 50 ms, as a slow client sends it, until `until`
 * resolves; `reading` resolves once the service has begun to read it (its import row says so).
 */
function trickledImport(
  url: string,
  account: TestAccount,
  until: Promise<void>,
): { reading: Promise<void>; answer: Promise<Answer> } {
  let done = false;
  void until.then(() => (done = true));
  let cut: (error: Error) => void = () => undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    cut = reject;
    const sent = http.request(
      `${url}/suppressions/imports?format=txt`,
      {
        agent: false,
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'text/plain' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    sent.on('error', reject);
    void (async () => {
      while (!done) {
        sent.write(`${uniqueEmail()}\n`);
        await sleep(50);
      }
      sent.end();
    })();
  });
  const reading = eventually(
    async () => {
      const { rows } = await database.db.query<{ status: string }>({
        text: 'SELECT status FROM imports WHERE account_id = $1',
        values: [account.accountId],
      });
      return rows[0]?.status === 'reading';
    },
    10_000,
    'the import being read',
  ).catch((error: Error) => {
    cut(error);
    throw error;
  });
  return { reading, answer };
}

/**
 * Publishes bounces in small batches through the producer library, while fewer than `BACKLOG` wait,
 * until stopped; `stop` gives their event ids, after one batch more if `lastBatch` asks for it.
 */
function publishStream(
  events: TestQueue,
  accountId: string,
): { stop: (options?: { lastBatch: boolean }) => Promise<string[]> } {
  const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
  const ids: string[] = [];
  const publishBatch = async (): Promise<void> => {
    const batch = uniqueEmails(50).map((email) => bounceEvent(accountId, email));
    await producer.publishMany(batch);
    ids.push(...batch.map((event) => event.event_id));
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      if ((await events.queue.getWaitingCount()) < BACKLOG) await publishBatch();
      await sleep(10);
    }
  })();
  return {
    stop: async ({ lastBatch } = { lastBatch: false }) => {
      running = false;
      await loop;
      if (lastBatch) await publishBatch();
      await producer.close();
      return ids;
    },
  };
}

/** A stream of events published for the account, once the workers have applied 200 of them. */
async function streamUnderWay(events: TestQueue, accountId: string): Promise<ReturnType<typeof publishStream>> {
  const stream = publishStream(events, accountId);
  await eventually(
    async () => (await recordedEventIds(accountId)).length >= 200,
    20_000,
    'the workers applying the stream',
  );
  return stream;
}

async function recordedEventIds(accountId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ event_id: string }>({
    text: 'SELECT event_id FROM suppression_events WHERE account_id = $1',
    values: [accountId],
  });
  return rows.map((row) => row.event_id);
}

/** The event ids of the jobs still waiting in the queue, for one account. */
async function waitingEventIds(events: TestQueue, accountId: string): Promise<string[]> {
  const jobs = await events.queue.getJobs(['wait', 'paused', 'prioritized', 'delayed']);
  return jobs
    .map((job) => job.data as { account_id: string; event_id: string })
    .filter((data) => data.account_id === accountId)
    .map((data) => data.event_id);
}

/** Every published event is recorded once or waits in the queue untouched, and no job is left half-done. */
async function expectNoneLost(events: TestQueue, accountId: string, published: readonly string[]): Promise<void> {
  const recorded = await recordedEventIds(accountId);
  const waiting = await waitingEventIds(events, accountId);
  expect(await events.queue.getJobCounts('active', 'failed')).toEqual({ active: 0, failed: 0 });
  expect(recorded.length).toBeGreaterThan(0);
  expect(new Set(recorded).size).toBe(recorded.length);
  expect(recorded.filter((id) => waiting.includes(id))).toEqual([]);
  expect([...recorded, ...waiting].sort()).toEqual([...published].sort());
}

/** A worker started again takes what was left waiting: in the end every published event is recorded, once. */
async function expectAllAppliedByAnotherWorker(
  events: TestQueue,
  accountId: string,
  published: readonly string[],
): Promise<void> {
  const worker = await start(events, { ROLE: 'workers' });
  await eventually(
    async () => (await recordedEventIds(accountId)).length >= published.length,
    30_000,
    'every event recorded',
  );
  expect((await recordedEventIds(accountId)).sort()).toEqual([...published].sort());
  await worker.stop();
  expect(await worker.exited).toBe(0);
}

/** `/ready`'s status and answer, asked every 20 ms until the connection is refused. */
async function readinessUntilGone(url: string): Promise<string[]> {
  const answers: string[] = [];
  for (;;) {
    const answer = await request(`${url}/ready`, {}).catch(() => undefined);
    if (answer === undefined) return answers;
    answers.push(`${answer.status} ${(JSON.parse(answer.body) as { status: string }).status}`);
    await sleep(20);
  }
}

/** Holds the entries' table locked against every read and write until `release`. */
async function lockSuppressions(): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('BEGIN');
  // The key changes too: the check filter's round waits on them, and then the check on the entries.
  await client.query('LOCK TABLE suppressions, suppression_key_changes IN ACCESS EXCLUSIVE MODE');
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/**
 * Resolves once the service has received `expected` requests of the test: each is answered or in
 * flight. A connection still waiting in the listening socket's queue at the signal is reset when the
 * socket closes, as for any server; "in flight" means received.
 */
async function everyRequestReceived(service: ServiceProcess, answered: () => number, expected: number): Promise<void> {
  await eventually(
    async () => {
      // Read before the gauge: a request answered in between is then counted by neither, never twice.
      const answeredBefore = answered();
      const metrics = await request(`${service.url}/metrics`, {
        headers: { authorization: `Bearer ${PRODUCTION_DEFAULTS.METRICS_TOKEN}` },
      });
      const inFlight = Number(/^http_requests_in_flight (\d+)$/m.exec(metrics.body)?.[1] ?? 0);
      // The scrape itself is one of those in flight.
      return answeredBefore + inFlight - 1 >= expected;
    },
    20_000,
    `${expected} requests received`,
  );
}

async function signal(service: ServiceProcess): Promise<{ code: number | null }> {
  service.child.kill('SIGTERM');
  return { code: await service.exited };
}

describe('SIGTERM to the all-in-one process', () => {
  // A stream of events, a drain and a second service process, each step waiting on the one before:
  // on two cores shared with the rest of the suite this takes up to a minute, and the bound is for a hang.
  it(
    'when requests are in flight and events stream in, then every request is answered whole, it exits 0, and no event is lost',
    { timeout: 90_000 },
    async () => {
      const service = underTest.all;
      const url = service.url as string;
      const account = await newAccount(database.db);
      const stream = await streamUnderWay(queues.all, account.accountId);
      // An account of its own: the import's entries are records of the audit trail too.
      let finishUpload: () => void = () => undefined;
      const upload = trickledImport(
        url,
        await newAccount(database.db),
        new Promise<void>((resolve) => (finishUpload = resolve)),
      );
      await upload.reading;
      // The checks wait on the lock until the signal has been taken: all of them are in flight then.
      const lock = await lockSuppressions();
      let answered = 0;
      const checks = Array.from({ length: CHECKS }, () =>
        check(url, account.token, uniqueEmails(CHECK_SIZE)).finally(() => (answered += 1)),
      );
      await everyRequestReceived(service, () => answered, CHECKS + 1);

      const stopped = signal(service);
      await eventually(
        () => Promise.resolve(service.logs.some((line) => line['msg'] === 'shutting down')),
        10_000,
        'the signal taken',
      );
      expect(answered).toBe(0);
      await lock.release();
      finishUpload();
      // The events stream in until the process has exited.
      const { code } = await stopped;
      const published = await stream.stop();

      // Exiting 0, it finished within its grace: past it, the process exits 1.
      expect(code).toBe(0);
      for (const answer of await Promise.all(checks)) expectWholeCheck(answer);
      const imported = await upload.answer;
      expect(imported.status).toBe(202);
      expect(JSON.parse(imported.body)).toMatchObject({ object: 'import', status: 'processing' });
      expect(service.logs.some((line) => line['msg'] === 'shutdown took too long, exiting')).toBe(false);
      await expectNoneLost(queues.all, account.accountId, published);
      await expectAllAppliedByAnotherWorker(queues.all, account.accountId, published);
    },
  );
});

describe('SIGTERM to ROLE=api with SHUTDOWN_DELAY_MS', () => {
  it('when stopping, then /ready answers 503 while requests are still served on closing connections, new connections are refused after the delay, and the request in flight finishes', async () => {
    const service = underTest.api;
    const url = service.url as string;
    const account = await newAccount(database.db);
    // Ready before the stop: on a loaded machine a new process's first checks may take their full second.
    await eventually(async () => (await request(`${url}/ready`, {})).status === 200, 10_000, 'ready before the stop');
    // The upload goes on until new connections are refused, then ends: it was in flight all along.
    let finishUpload: () => void = () => undefined;
    const upload = trickledImport(url, account, new Promise<void>((resolve) => (finishUpload = resolve)));
    await upload.reading;

    const sentAt = Date.now();
    service.child.kill('SIGTERM');
    await eventually(async () => (await request(`${url}/ready`, {})).status === 503, 2000, '/ready answering 503');
    const ready = await request(`${url}/ready`, {});
    const during = await Promise.all(
      Array.from({ length: 10 }, () => check(url, account.token, uniqueEmails(CHECK_SIZE))),
    );
    const refusedAt = await (async () => {
      for (;;) {
        const refused = await request(`${url}/health`, {}).then(
          () => false,
          (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
        );
        if (refused) return Date.now();
        await sleep(20);
      }
    })();
    finishUpload();
    const code = await service.exited;

    expect(JSON.parse(ready.body)).toEqual({ status: 'stopping', checks: { database: 'ok', redis: 'ok' } });
    expect(ready.headers.connection).toBe('close');
    for (const answer of during) {
      expectWholeCheck(answer);
      expect(answer.headers.connection).toBe('close');
    }
    expect(refusedAt - sentAt).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS);
    expect((await upload.answer).status).toBe(202);
    expect(code).toBe(0);
  });
});

describe('SIGTERM to ROLE=workers', () => {
  it('when events stream in, then /ready answers 503 while the workers finish their active jobs, it exits 0, no event is lost, and a worker started again applies the rest', async () => {
    const service = underTest.workers;
    const account = await newAccount(database.db);
    const stream = await streamUnderWay(queues.workers, account.accountId);

    const stopping = signal(service);
    const readiness = await readinessUntilGone(service.url as string);
    const stopped = await stopping;
    // A batch published once the process has gone: it waits, untouched, for the next worker.
    const published = await stream.stop({ lastBatch: true });

    // Exiting 0, it finished within its grace: past it, the process exits 1.
    expect(stopped.code).toBe(0);
    // The first answer may have been given before the signal arrived; none after a 503 is a 200.
    const fromStop = readiness.slice(readiness.indexOf('503 stopping'));
    expect(fromStop.length).toBeGreaterThan(0);
    expect(new Set(fromStop)).toEqual(new Set(['503 stopping']));
    expect(published.length).toBeGreaterThan((await recordedEventIds(account.accountId)).length);
    await expectNoneLost(queues.workers, account.accountId, published);
    await expectAllAppliedByAnotherWorker(queues.workers, account.accountId, published);
  });
});
