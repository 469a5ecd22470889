import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TIMEOUTS } from '../../src/config.js';
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

let dir: string;
let database: TestDatabase;
let events: TestQueue;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  [dir, database, events] = await Promise.all([sharedBuild(), createTestDatabase(), createTestQueue(EVENTS_QUEUE)]);
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop('SIGKILL')));
  await events?.cleanup();
  await database?.drop();
});

async function start(env: Record<string, string>): Promise<ServiceProcess> {
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
 * An import whose list arrives a line every 50 ms, as a slow client sends it, for `until` ms or until
 * that promise resolves; `reading` resolves once the service has begun to read it (its import row says so).
 */
function trickledImport(
  url: string,
  account: TestAccount,
  until: number | Promise<void>,
): { reading: Promise<void>; answer: Promise<Answer> } {
  let done = false;
  if (typeof until === 'number') {
    const endsAt = Date.now() + until;
    until = (async () => {
      while (Date.now() < endsAt) await sleep(50);
    })();
  }
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

/** Publishes bounces in small batches through the producer library until stopped; `stop` gives their event ids. */
function publishStream(accountId: string): { published: () => number; stop: () => Promise<string[]> } {
  const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
  const ids: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const batch = uniqueEmails(50).map((email) => bounceEvent(accountId, email));
      await producer.publishMany(batch);
      ids.push(...batch.map((event) => event.event_id));
      await sleep(10);
    }
  })();
  return {
    published: () => ids.length,
    stop: async () => {
      running = false;
      await loop;
      await producer.close();
      return ids;
    },
  };
}

/** A stream of events published for the account, once the workers have applied 200 of them. */
async function streamUnderWay(accountId: string): Promise<ReturnType<typeof publishStream>> {
  const stream = publishStream(accountId);
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
async function waitingEventIds(accountId: string): Promise<string[]> {
  const jobs = await events.queue.getJobs(['wait', 'paused', 'prioritized', 'delayed']);
  return jobs
    .map((job) => job.data as { account_id: string; event_id: string })
    .filter((data) => data.account_id === accountId)
    .map((data) => data.event_id);
}

/** Every published event is recorded once or waits in the queue untouched, and no job is left half-done. */
async function expectNoneLost(accountId: string, published: readonly string[]): Promise<void> {
  const recorded = await recordedEventIds(accountId);
  const waiting = await waitingEventIds(accountId);
  expect(await events.queue.getJobCounts('active', 'failed')).toEqual({ active: 0, failed: 0 });
  expect(recorded.length).toBeGreaterThan(0);
  expect(new Set(recorded).size).toBe(recorded.length);
  expect(recorded.filter((id) => waiting.includes(id))).toEqual([]);
  expect([...recorded, ...waiting].sort()).toEqual([...published].sort());
}

/** A worker started again takes what was left waiting: in the end every published event is recorded, once. */
async function expectAllAppliedByAnotherWorker(accountId: string, published: readonly string[]): Promise<void> {
  const worker = await start({ ROLE: 'workers' });
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
  await client.query('LOCK TABLE suppressions IN ACCESS EXCLUSIVE MODE');
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

async function signal(service: ServiceProcess): Promise<{ code: number | null; tookMs: number }> {
  const sentAt = Date.now();
  service.child.kill('SIGTERM');
  const code = await service.exited;
  return { code, tookMs: Date.now() - sentAt };
}

describe('SIGTERM to the all-in-one process', () => {
  // Two service processes, a stream of events and a drain, each step waiting on the one before: on
  // two cores shared with the rest of the suite this takes up to a minute, and the bound is for a hang.
  it(
    'when requests are in flight and events stream in, then every request is answered whole, it exits 0, and no event is lost',
    { timeout: 90_000 },
    async () => {
      // The checks wait on a lock below for as long as the machine takes to send them all; their
      // statements must outlast that wait, not the default 5 s.
      const service = await start({
        DATABASE_STATEMENT_TIMEOUT_MS: '60000',
        DATABASE_POOL_SIZE: String(HELD_POOL_SIZE),
      });
      const url = service.url as string;
      const account = await newAccount(database.db);
      const stream = await streamUnderWay(account.accountId);
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
      await sleep(200);
      const published = await stream.stop();

      const { code, tookMs } = await stopped;
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(SERVER_TIMEOUTS.processGraceMs);
      for (const answer of await Promise.all(checks)) expectWholeCheck(answer);
      const imported = await upload.answer;
      expect(imported.status).toBe(202);
      expect(JSON.parse(imported.body)).toMatchObject({ object: 'import', status: 'processing' });
      expect(service.logs.some((line) => line['msg'] === 'shutdown took too long, exiting')).toBe(false);
      await expectNoneLost(account.accountId, published);
      await expectAllAppliedByAnotherWorker(account.accountId, published);
    },
  );
});

describe('SIGTERM to ROLE=api with SHUTDOWN_DELAY_MS', () => {
  it('when stopping, then /ready answers 503 while requests are still served on closing connections, new connections are refused after the delay, and the request in flight finishes', async () => {
    const delayMs = 1000;
    const service = await start({ ROLE: 'api', SHUTDOWN_DELAY_MS: String(delayMs) });
    const url = service.url as string;
    const account = await newAccount(database.db);
    // Ready before the stop: on a loaded machine a new process's first checks may take their full second.
    await eventually(async () => (await request(`${url}/ready`, {})).status === 200, 10_000, 'ready before the stop');
    const upload = trickledImport(url, account, delayMs + 1500);
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
    const code = await service.exited;

    expect(JSON.parse(ready.body)).toEqual({ status: 'stopping', checks: { database: 'ok', redis: 'ok' } });
    expect(ready.headers.connection).toBe('close');
    for (const answer of during) {
      expectWholeCheck(answer);
      expect(answer.headers.connection).toBe('close');
    }
    expect(refusedAt - sentAt).toBeGreaterThanOrEqual(delayMs);
    expect((await upload.answer).status).toBe(202);
    expect(code).toBe(0);
  });
});

describe('SIGTERM to ROLE=workers', () => {
  it('when events stream in, then /ready answers 503 while the workers finish their active jobs, it exits 0, no event is lost, and a worker started again applies the rest', async () => {
    const service = await start({ ROLE: 'workers' });
    const account = await newAccount(database.db);
    const stream = await streamUnderWay(account.accountId);

    const stopping = signal(service);
    const readiness = await readinessUntilGone(service.url as string);
    const stopped = await stopping;
    await sleep(200);
    const published = await stream.stop();

    expect(stopped.code).toBe(0);
    expect(stopped.tookMs).toBeLessThan(SERVER_TIMEOUTS.processGraceMs);
    // The first answer may have been given before the signal arrived; none after a 503 is a 200.
    const fromStop = readiness.slice(readiness.indexOf('503 stopping'));
    expect(fromStop.length).toBeGreaterThan(0);
    expect(new Set(fromStop)).toEqual(new Set(['503 stopping']));
    expect(published.length).toBeGreaterThan((await recordedEventIds(account.accountId)).length);
    await expectNoneLost(account.accountId, published);
    await expectAllAppliedByAnotherWorker(account.accountId, published);
  });
});
