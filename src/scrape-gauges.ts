import type { Queue } from 'bullmq';
import type pg from 'pg';
import { Gauge, type Registry } from 'prom-client';
import type { ReadReplicas } from './db/read-replicas.js';
import { withTimeout } from './with-timeout.js';

/** `/ready`'s checks by name, each `ok` or `failed`. */
export type ReadinessChecks = () => Promise<Readonly<Record<string, 'ok' | 'failed'>>>;

/** The job states reported as queue depth. */
const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
  'paused',
] as const;

/** A read made at scrape time (a queue's counts, the webhook backlog) never holds a scrape longer than this. */
const SCRAPE_READ_TIMEOUT_MS = 1000;

/** Each replica's state from its monitor, and its pool's use, read at scrape time. */
export function replicaGauges(registry: Registry, replicas: ReadReplicas): void {
  const labelNames = ['replica'] as const;
  new Gauge({
    name: 'db_replica_up',
    help: 'Whether the read replica answers as a replica (1) or not (0).',
    labelNames,
    registers: [registry],
    collect() {
      for (const { replica, state } of replicas.states()) this.set({ replica }, state === 'down' ? 0 : 1);
    },
  });
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How far the read replica is behind the primary, from their WAL positions (0 when it has replayed everything); absent while it is down.',
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { replica, lagMs } of replicas.states()) if (lagMs !== null) this.set({ replica }, lagMs / 1000);
    },
  });
  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number): void => {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        for (const { name: replica, db } of replicas.replicas) this.set({ replica }, read(db.pool));
      },
    });
  };
  poolGauge('db_replica_pool_connections_total', 'Connections open in the read replica’s pool.', (p) => p.totalCount);
  poolGauge(
    'db_replica_pool_connections_idle',
    'Connections open and idle in the read replica’s pool.',
    (p) => p.idleCount,
  );
  poolGauge(
    'db_replica_pool_waiting_requests',
    'Queries waiting for a connection of the read replica’s pool.',
    (p) => p.waitingCount,
  );
}

/** The process's pools, summed, read at scrape time. */
export function poolGauges(registry: Registry, pools: ReadonlySet<pg.Pool>): void {
  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set([...pools].reduce((sum, pool) => sum + read(pool), 0));
      },
    });
  };
  poolGauge(
    'db_pool_connections_total',
    'PostgreSQL connections open in the pool (idle and in use).',
    (p) => p.totalCount,
  );
  poolGauge('db_pool_connections_idle', 'PostgreSQL connections open and idle in the pool.', (p) => p.idleCount);
  poolGauge('db_pool_waiting_requests', 'Queries waiting for a pool connection.', (p) => p.waitingCount);
}

/**
 * Samples every queue at scrape time, one round trip each and side by side; a queue whose Redis
 * does not answer in time has no sample this scrape (readiness reports Redis).
 */
async function sampleQueues(
  gauge: Gauge,
  queues: ReadonlySet<Queue>,
  sample: (queue: Queue) => Promise<void>,
): Promise<void> {
  gauge.reset();
  await Promise.all(
    [...queues].map((queue) => withTimeout(sample(queue), SCRAPE_READ_TIMEOUT_MS).catch(() => undefined)),
  );
}

/** Each queue's depth by state, and the age of its oldest waiting job, read at scrape time. */
export function queueGauges(registry: Registry, queues: ReadonlySet<Queue>): void {
  new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs in each BullMQ queue by state.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      await sampleQueues(this, queues, async (queue) => {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      });
    },
  });
  new Gauge({
    name: 'bullmq_queue_oldest_waiting_job_seconds',
    help: 'Seconds since the oldest job waiting in each BullMQ queue became due (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      await sampleQueues(this, queues, async (queue) => {
        // The waiting list's far end: one job, the longest-waiting, read in one round trip.
        const oldest = await queue.getWaiting(0, 0);
        const due = Math.min(...oldest.map((job) => job.timestamp + (job.delay ?? 0)));
        this.set({ queue: queue.name }, Number.isFinite(due) ? Math.max(0, (Date.now() - due) / 1000) : 0);
      });
    },
  });
}

/** The age of the oldest change not yet delivered, in seconds, as `readAge` reads it at scrape time. */
export function webhookBacklogGauge(registry: Registry, readAge: () => Promise<number>): void {
  new Gauge({
    name: 'webhook_oldest_undelivered_change_seconds',
    help: 'Age of the oldest suppression change not yet delivered to every webhook it is for (nor given up); 0 when none.',
    registers: [registry],
    async collect() {
      try {
        this.set(await withTimeout(readAge(), SCRAPE_READ_TIMEOUT_MS));
      } catch {
        // Readiness reports the database; the metric simply has no fresh sample this time.
      }
    },
  });
}

/** The readiness checks, run at each scrape. */
export function readinessGauge(registry: Registry, checks: ReadinessChecks): void {
  new Gauge({
    name: 'readiness_check_ok',
    help: 'Whether each check of /ready (database, redis) answered within its 1 s at this scrape (1) or not (0).',
    labelNames: ['check'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [check, state] of Object.entries(await checks())) this.set({ check }, state === 'ok' ? 1 : 0);
    },
  });
}
