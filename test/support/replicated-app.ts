import { afterAll, afterEach, beforeAll } from 'vitest';
import { createApp } from '../../api/app.js';
import { listen, type RunningServer } from '../../api/server.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { openReadReplicas, type ReadReplicas } from '../../src/db/read-replicas.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { checkingAnswers, expectAnswersAsDocumented } from './contract-check.js';
import { startReplicaCluster, type ReplicaCluster } from './replica-cluster.js';
import { testConfig, testDeps } from './test-config.js';
import { createTestRedis, type TestRedis } from './test-redis.js';

/** The bound the apps are given: DATABASE_READ_MAX_LAG_MS's default. */
export const MAX_LAG_MS = 1000;

const DATABASE = 'sl_replicas';

export interface ReplicaApp {
  server: RunningServer;
  metrics: Metrics;
  /** Its own replicas and monitor, as each API process has; undefined for an app without replicas. */
  replicas: ReadReplicas | undefined;
}

export interface ReplicatedApp {
  readonly cluster: ReplicaCluster;
  /** The app's primary database (on the cluster's primary), for writes made behind the API's back. */
  readonly primary: Database;
  /** The same database on the replica, to see what it holds. */
  readonly replicaUrl: string;
  /** The file's Redis: its key prefix is the apps' REDIS_KEY_PREFIX. */
  readonly redis: TestRedis;
  /** The first app, reading from the replica. */
  readonly app: ReplicaApp;
  /** Another app on the same databases and Redis prefix, as a second API process would be. */
  startApp(options: { replicas: boolean; redis?: TestRedis }): Promise<ReplicaApp>;
}

/**
 * For the whole test file: a primary and a streaming replica of their own, a migrated database on
 * them, and the real app reading from the replica with `DATABASE_READ_URL`'s machinery.
 */
export function useReplicatedApp(): ReplicatedApp {
  const state: Partial<{ cluster: ReplicaCluster; primary: Database; redis: TestRedis; app: ReplicaApp }> = {};
  const apps: ReplicaApp[] = [];
  const redises: TestRedis[] = [];
  const logger = createLogger('silent');

  const startApp = async (options: { replicas: boolean; redis?: TestRedis }): Promise<ReplicaApp> => {
    const { cluster, primary, redis: fileRedis } = state as Required<typeof state>;
    const redis = options.redis ?? fileRedis;
    const replicas = options.replicas
      ? await openReadReplicas({
          primaryUrl: cluster.primaryUrlFor(DATABASE),
          urls: [cluster.replicaUrlFor(DATABASE)],
          maxLagMs: MAX_LAG_MS,
          poolSize: 5,
          statementTimeoutMs: 5000,
          applicationName: 'read-replicas-test',
          logger,
        })
      : undefined;
    const metrics = createMetrics();
    const config = testConfig({ rateLimitPerSecond: 1_000_000, env: { REDIS_KEY_PREFIX: redis.keyPrefix } });
    const express = checkingAnswers(
      createApp(config, { ...testDeps({}), db: primary, replicas, redis: await redis.newClient(), metrics }),
    );
    const app = { server: await listen(express, '127.0.0.1', 0), metrics, replicas };
    apps.push(app);
    return app;
  };

  afterEach(expectAnswersAsDocumented);
  beforeAll(async () => {
    state.cluster = await startReplicaCluster();
    const admin = createDatabase({ url: state.cluster.primaryUrl, poolSize: 1, logger });
    await admin.query({ text: `CREATE DATABASE ${DATABASE}` });
    await admin.close();
    await migrate(state.cluster.primaryUrlFor(DATABASE), logger);
    await state.cluster.caughtUp();
    state.primary = createDatabase({ url: state.cluster.primaryUrlFor(DATABASE), poolSize: 5, logger });
    state.redis = await createTestRedis();
    redises.push(state.redis);
    state.app = await startApp({ replicas: true });
  });
  afterAll(async () => {
    for (const app of apps.splice(0)) {
      await app.server.close();
      await app.replicas?.close();
    }
    await Promise.all(redises.map((redis) => redis.cleanup()));
    await state.primary?.close();
    await state.cluster?.remove();
  });

  const ready = <K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> => {
    const value = state[key];
    if (value === undefined) throw new Error('useReplicatedApp(): only inside tests and hooks');
    return value;
  };
  return {
    get cluster() {
      return ready('cluster');
    },
    get primary() {
      return ready('primary');
    },
    get replicaUrl() {
      return ready('cluster').replicaUrlFor(DATABASE);
    },
    get redis() {
      return ready('redis');
    },
    get app() {
      return ready('app');
    },
    async startApp(options) {
      if (options.redis && !redises.includes(options.redis)) redises.push(options.redis);
      return startApp(options);
    },
  };
}
