import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createApp, type AppDeps } from '../../api/app.js';
import { createBatchProducer } from '../../src/batches/batch-producer.js';
import { createEventProducer } from '../../src/events/event-producer.js';
import { listen, type RunningServer } from '../../api/server.js';
import type { Database } from '../../src/db/database.js';
import { createMailProducer } from '../../src/mail/messages/mail-producer.js';
import { BATCHES_QUEUE, EVENTS_QUEUE, MAINTENANCE_QUEUE } from '../../src/queues.js';
import { createReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import { newAccount, type TestAccount } from './accounts.js';
import { apiClient, type ApiClient } from './api-client.js';
import { checkingAnswers, expectAnswersAsDocumented } from './contract-check.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { createTestQueue, type TestQueue } from './test-queue.js';
import { testConfig, testDeps, type TestSettings } from './test-config.js';
import { createTestRedis, type TestRedis } from './test-redis.js';

/** What an app of the tests is made of: its settings, and the live things besides its database. */
interface AppParts {
  settings: TestSettings;
  deps: Omit<AppDeps, 'db' | 'logger'>;
}

async function serve(db: Database, { settings, deps }: AppParts): Promise<{ express: Express; server: RunningServer }> {
  const express = checkingAnswers(createApp(testConfig(settings), { ...testDeps(settings), ...deps, db }));
  return { express, server: await listen(express, '127.0.0.1', 0) };
}

/** The real app on a free port of 127.0.0.1. */
export async function startTestApp(db: Database, settings: TestSettings = {}): Promise<RunningServer> {
  return (await serve(db, { settings, deps: {} })).server;
}

export interface TestAppOptions extends TestSettings {
  /**
   * 'live': the app keeps its rate limits and idempotency records in the tests' Redis, under the
   * file's key prefix; 'unreachable': its Redis never answers. Without it, the app runs without Redis.
   */
  redis?: 'live' | 'unreachable';
  /**
   * The file's events and batches queues: their depth in /metrics, the dashboard at /admin/queues,
   * feed events and those of `POST /events` published to the events queue and imports queued on the batches queue (through
   * the app's Redis when that is unreachable).
   */
  queues?: boolean;
}

interface FileQueues {
  events: TestQueue;
  batches: TestQueue;
  maintenance: TestQueue;
}

export interface TestApp {
  readonly database: TestDatabase;
  readonly server: RunningServer;
  /** The Express app behind `server`, for tests that walk its routes. */
  readonly express: Express;
  /** The Redis client of the file's first 'live' app, to look at what it stored. */
  readonly redis: Redis;
  /** The namespace of the file's records in Redis; its keys are removed with the file. */
  readonly redisKeyPrefix: string;
  /** The file's events, batches and maintenance queues, once an app was started with `queues: true`. */
  readonly events: TestQueue;
  readonly batches: TestQueue;
  readonly maintenance: TestQueue;
  /**
   * Another app on the file's database (or on `db`), sharing its Redis key prefix as a second
   * process would; each 'live' one has a Redis client of its own. Closed with the file.
   */
  startApp(options?: TestAppOptions & { db?: Database }): Promise<RunningServer>;
}

/**
 * For the whole test file: a database of its own, and the real app serving it on a free port, with
 * Redis and queues of the file's own when the options ask for them.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const state: {
    database?: TestDatabase;
    main?: { express: Express; server: RunningServer };
    redis?: TestRedis;
    redisReady?: Promise<TestRedis>;
    queues?: FileQueues;
    queuesReady?: Promise<FileQueues>;
  } = {};
  const others: RunningServer[] = [];
  const producers: { close(): Promise<void> }[] = [];
  let firstLiveClient: Redis | undefined;

  const fileRedis = (): Promise<TestRedis> =>
    (state.redisReady ??= createTestRedis().then((redis) => (state.redis = redis)));
  const fileQueues = () =>
    (state.queuesReady ??= Promise.all([
      createTestQueue(EVENTS_QUEUE),
      createTestQueue(BATCHES_QUEUE),
      createTestQueue(MAINTENANCE_QUEUE),
    ]).then(([events, batches, maintenance]) => (state.queues = { events, batches, maintenance })));

  async function appParts({ redis, queues, ...settings }: TestAppOptions): Promise<AppParts> {
    const deps: AppParts['deps'] = {};
    const env: NodeJS.ProcessEnv = { ...settings.env };
    if (redis) {
      const testRedis = await fileRedis();
      env['REDIS_KEY_PREFIX'] = testRedis.keyPrefix;
      if (redis === 'unreachable') deps.redis = await testRedis.unreachableClient();
      else if (firstLiveClient) deps.redis = await testRedis.newClient();
      else deps.redis = firstLiveClient = testRedis.client;
    }
    if (queues) {
      const { events, batches, maintenance } = await fileQueues();
      deps.queues = [events.queue, batches.queue];
      const connection = redis === 'unreachable' && deps.redis ? deps.redis : events.connection;
      const producer = createEventProducer({ connection, prefix: events.prefix, connectTimeoutMs: 1000 });
      producers.push(producer);
      deps.publishFeedEvents = settings.feeds?.publish ?? ((list) => producer.publishParsed(list));
      deps.publishEvents = (list) => producer.publishParsed(list);
      const imports = createBatchProducer({ connection, prefix: batches.prefix, connectTimeoutMs: 1000 });
      producers.push(imports);
      deps.imports = settings.imports ?? imports;
      const reclassifications = createReclassificationQueue({
        connection,
        prefix: maintenance.prefix,
        connectTimeoutMs: 1000,
      });
      producers.push(reclassifications);
      deps.reclassifications = settings.reclassifications ?? reclassifications;
      const mail = createMailProducer({ connection, prefix: events.prefix, connectTimeoutMs: 1000 });
      producers.push(mail);
      deps.mail = mail;
    }
    return { settings: { ...settings, env }, deps };
  }

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useTestApp(): ${what}`);
    return value;
  };

  // Every successful answer a test of the file received matches the OpenAPI document.
  afterEach(expectAnswersAsDocumented);
  beforeAll(async () => {
    state.database = await createTestDatabase();
    state.main = await serve(state.database.db, await appParts(options));
  });
  afterAll(async () => {
    await Promise.all(others.map((server) => server.close()));
    await state.main?.server.close();
    await Promise.all(producers.map((producer) => producer.close()));
    await state.queues?.events.cleanup();
    await state.queues?.batches.cleanup();
    await state.queues?.maintenance.cleanup();
    await state.redis?.cleanup();
    await state.database?.drop();
  });

  return {
    get database() {
      return ready(state.database, 'the database exists only inside tests and hooks');
    },
    get server() {
      return ready(state.main, 'the app runs only inside tests and hooks').server;
    },
    get express() {
      return ready(state.main, 'the app exists only inside tests and hooks').express;
    },
    get redis() {
      return ready(firstLiveClient, "no app was started with redis: 'live'");
    },
    get redisKeyPrefix() {
      return ready(state.redis, 'no app was started with redis').keyPrefix;
    },
    get events() {
      return ready(state.queues, 'no app was started with queues: true').events;
    },
    get batches() {
      return ready(state.queues, 'no app was started with queues: true').batches;
    },
    get maintenance() {
      return ready(state.queues, 'no app was started with queues: true').maintenance;
    },
    async startApp({ db, ...wanted } = {}) {
      const database = db ?? ready(state.database, 'apps start only inside tests and hooks').db;
      const { server } = await serve(database, await appParts(wanted));
      others.push(server);
      return server;
    },
  };
}

export interface ApiAccount extends TestAccount {
  /** A client of the app that speaks for this account. */
  readonly api: ApiClient;
}

/** A new account of its own, and a client of the file's app (or of `server`) with its key. */
export async function newApiAccount(app: TestApp, server: RunningServer = app.server): Promise<ApiAccount> {
  const account = await newAccount(app.database.db);
  return { ...account, api: apiClient(server.url, account.token) };
}
