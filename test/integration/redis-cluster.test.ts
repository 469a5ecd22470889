import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../api/start-api.js';
import type { RunningServer } from '../../api/server.js';
import { runList } from '../../cli/lists/run-list.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { ReplicasBehindError } from '../../src/replicated-queue.js';
import { redisReplayGuard } from '../../src/feeds/replay-guard.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { createRedis } from '../../src/redis.js';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.js';
import { newAccount } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { apiClientFrom, freshClientAddress } from '../support/client-address.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useRedisCluster } from '../support/redis-cluster.js';
import { runCli } from '../support/run-cli.js';
import { sleep } from '../support/sleep.js';
import { useTestDatabase } from '../support/test-database.js';
import { complaintEvent } from '../support/test-events.js';
import { eventually } from '../support/test-queue.js';
import { textCollector } from '../support/text-collector.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// BullMQ's keys of every queue share this hash tag, so each queue's scripts run in one slot.
const QUEUE_PREFIX = '{sl-cluster}';
const RATE_LIMIT = 3;
const AUTH_FAILURES = 3;
/**
 * A job the dead master had handed to a worker is taken up again by BullMQ's stalled-job check,
 * which runs every 30 s and moves a job on the second pass that finds it without its lock (the
 * default 30 s): up to a minute after the kill, and half a minute more when a pass came while the
 * cluster was failing over and could not run.
 */
const STALLED_JOB_RECOVERY_MS = 100_000;
/** As `stopOnSignals` gives a stopping process. */
const SHUTDOWN_GRACE_MS = 10_000;

const cluster = useRedisCluster();
const database = useTestDatabase();
const receivers: WebhookReceiver[] = [];
let config: Config;
let metrics: Metrics;
let workers: RunningWorkers | undefined;
let producer: EventProducer;
/** Two API processes on the one cluster, as behind a load balancer. */
let api: RunningServer;
let twin: RunningServer;

/** The cluster's nodes as an operator writes REDIS_CLUSTER_NODES. */
function clusterNodesVariable(): string {
  return (cluster.endpoint.clusterNodes ?? []).map(({ host, port }) => `${host}:${port}`).join(',');
}

function startApiProcess(): Promise<RunningServer> {
  return startApi({ config, logger: createLogger('silent'), db: database.db, metrics: createMetrics() });
}

/**
 * Closes the workers within the service's own shutdown grace. After a failover, a BullMQ worker
 * whose queue was idle sometimes never finishes closing (its blocking connection); the service's
 * shutdown would exit after the grace all the same, and so does this.
 */
async function closeWorkers(): Promise<'closed' | 'grace ran out'> {
  const running = workers;
  workers = undefined;
  return Promise.race([
    (running?.close() ?? Promise.resolve()).then(() => 'closed' as const),
    sleep(SHUTDOWN_GRACE_MS).then(() => 'grace ran out' as const),
  ]);
}

beforeAll(async () => {
  config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    REDIS_URL: cluster.endpoint.url,
    REDIS_CLUSTER_NODES: clusterNodesVariable(),
    QUEUE_PREFIX,
    PORT: '0',
    WORKER_CONCURRENCY: '50',
    RATE_LIMIT_PER_SECOND: String(RATE_LIMIT),
    AUTH_FAILURES_PER_SECOND: String(AUTH_FAILURES),
    ADMIN_TOKEN: 'admin-token',
    WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true',
    LOG_LEVEL: 'silent',
    REDIS_WAIT_REPLICAS: '1',
  });
  metrics = createMetrics();
  workers = await startWorkers({ config, logger: createLogger('silent'), db: database.db, metrics });
  [api, twin] = await Promise.all([startApiProcess(), startApiProcess()]);
  producer = createEventProducer({ connection: cluster.endpoint, prefix: QUEUE_PREFIX, replicas: 1 });
});

afterAll(async () => {
  await producer?.close();
  await Promise.all([api?.close(), twin?.close()]);
  await closeWorkers();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function eventRows(accountId: string): Promise<{ event_id: string; rows: number }[]> {
  const { rows } = await database.db.query<{ event_id: string; rows: number }>({
    text: `SELECT event_id, count(*)::int AS rows FROM suppression_events WHERE account_id = $1 GROUP BY event_id`,
    values: [accountId],
  });
  return rows;
}

async function suppressedEmails(accountId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows.map((row) => row.email);
}

async function duplicateJobs(): Promise<number> {
  const { values } = await metrics.eventsProcessed.get();
  return values.find((value) => value.labels['outcome'] === 'duplicate')?.value ?? 0;
}

describe('the service on a Redis Cluster', () => {
  it('when the cluster answers, then GET /ready says ok for the database and Redis', async () => {
    // The API's cluster client finds the nodes and their slots in the background after start.
    let response = await apiClient(api.url, null).get('/ready');
    await eventually(
      async () => (response = await apiClient(api.url, null).get('/ready')).status === 200,
      5000,
      'ready',
    );
    expect(response.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it("when events are published with the service's producer, then the event worker suppresses every address", async () => {
    const { accountId } = await newAccount(database.db);
    const emails = uniqueEmails(50);
    await producer.publishMany(emails.map((email) => complaintEvent(accountId, email)));

    await eventually(async () => (await suppressedEmails(accountId)).length === emails.length, 15_000, 'suppressed');
    expect(await suppressedEmails(accountId)).toEqual([...emails].sort());
  });

  it('when a list is imported with --wait, then the batch worker adds it and the command reports the totals', async () => {
    const { account, accountId } = await newAccount(database.db);
    const emails = uniqueEmails(120);
    const stdout = textCollector();
    const report = await runList(
      { operation: 'add', account, input: Readable.from([`${emails.join('\n')}\n`]), format: 'txt', wait: true },
      {
        redis: cluster.endpoint,
        prefix: QUEUE_PREFIX,
        stdout: stdout.stream,
        stderr: textCollector().stream,
        tty: false,
      },
    );

    expect(report.exitCode).toBe(0);
    expect(report.totals).toMatchObject({ jobs: 1, added: emails.length, failed: [] });
    expect(await suppressedEmails(accountId)).toEqual([...emails].sort());
  });

  it('when one account sends past its limit across two API processes, then the request over the limit gets 429', async () => {
    const { token } = await newAccount(database.db);
    const statuses: number[] = [];
    for (const server of [api, twin, api, twin]) {
      statuses.push((await apiClient(server.url, token).get('/suppressions')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('when a POST is repeated with its Idempotency-Key on the other API process, then the first answer is replayed', async () => {
    const { token } = await newAccount(database.db);
    const email = uniqueEmail();
    const headers = { 'idempotency-key': `key-${email}` };
    const first = await apiClient(api.url, token).post('/suppressions', { email }, { headers });
    const again = await apiClient(twin.url, token).post('/suppressions', { email }, { headers });

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('when a client fails to authenticate past the limit, then its next requests get 429 from either process', async () => {
    // From an address of its own, so that its refusals never reach the other tests' requests.
    const client = freshClientAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < AUTH_FAILURES + 2; attempt += 1) {
      statuses.push(
        (await apiClientFrom(client, (attempt % 2 === 0 ? api : twin).url, null).get('/suppressions')).status,
      );
    }
    expect(statuses.slice(0, AUTH_FAILURES)).toEqual(Array(AUTH_FAILURES).fill(401));
    expect(statuses).toContain(429);
  });

  it('when a feed token has been reserved, then no other process can take it until it is given back', async () => {
    const client = createRedis(cluster.endpoint, 'request');
    const other = createRedis(cluster.endpoint, 'request');
    try {
      await Promise.all([client, other].map((each) => new Promise((resolve) => each.once('ready', resolve))));
      const token = uniqueEmail();
      expect(await redisReplayGuard(client, 'sl:').reserve('feed-1', token)).toBe(true);
      expect(await redisReplayGuard(other, 'sl:').reserve('feed-1', token)).toBe(false);
      await redisReplayGuard(client, 'sl:').release('feed-1', token);
      expect(await redisReplayGuard(other, 'sl:').reserve('feed-1', token)).toBe(true);
    } finally {
      client.disconnect();
      other.disconnect();
    }
  });

  it('when the admin opens the queue dashboard, then it lists every queue with its counts', async () => {
    const response = await apiClient(api.url, 'admin-token').get('/admin/queues/api/queues');
    expect(response.status).toBe(200);
    const names = (response.body.queues as { name: string }[]).map((queue) => queue.name).sort();
    expect(names).toEqual([
      'mail-messages',
      'suppression-batches',
      'suppression-events',
      'suppression-maintenance',
      'webhook-deliveries',
    ]);
  });

  it('when an event suppresses an address of an account with a webhook, then the webhook worker delivers suppression.added', async () => {
    const { accountId } = await newAccount(database.db);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const webhook = await createWebhook(database.db, {
      accountId,
      endpoint: receiver.url,
      events: ['suppression.added'],
    });
    receiver.secret = webhook.signingSecret;
    const email = uniqueEmail();
    await producer.publish(complaintEvent(accountId, email));

    await eventually(() => Promise.resolve(receiver.accepted().length === 1), 15_000, 'a delivery');
    expect(receiver.accepted()[0]!.verified).toMatchObject({
      ok: true,
      payload: { type: 'suppression.added', data: { email, origin: 'complaint' } },
    });
  });
});

describe('the command line on a Redis Cluster', () => {
  const clusterEnv = (): Record<string, string> => ({
    DATABASE_URL: database.url,
    REDIS_URL: config.REDIS_URL,
    REDIS_CLUSTER_NODES: clusterNodesVariable(),
    QUEUE_PREFIX,
    LOG_LEVEL: 'silent',
  });

  it('when events are piped to `events publish`, then they are queued on the cluster and `events failed` lists none', async () => {
    const { accountId } = await newAccount(database.db);
    const emails = uniqueEmails(3);
    const ndjson = emails.map((email) => JSON.stringify(complaintEvent(accountId, email))).join('\n');

    const published = await runCli(['events', 'publish', '-'], clusterEnv(), `${ndjson}\n`);
    expect(published).toMatchObject({ code: 0, stdout: 'Queued 3 events from 3 lines.\n' });
    await eventually(async () => (await suppressedEmails(accountId)).length === 3, 15_000, 'suppressed');
    const failed = await runCli(['events', 'failed', '--json'], clusterEnv());
    expect(failed).toMatchObject({ code: 0, stdout: '' });
  });

  it('when QUEUE_PREFIX has no hash tag, then the command refuses to start and names QUEUE_PREFIX', async () => {
    const run = await runCli(['events', 'failed'], { ...clusterEnv(), QUEUE_PREFIX: 'bull' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('QUEUE_PREFIX: must contain a hash tag such as {sl} when REDIS_CLUSTER_NODES is set');
  });
});

describe("publishing that waits for the queues' replica", () => {
  it("when the replica of the queues' master cannot take writes, then a publish and POST /events fail, and the same event is taken once it can", async () => {
    const { accountId, token } = await newAccount(database.db);
    const event = complaintEvent(accountId, uniqueEmail());
    const replica = await cluster.replicaOf(QUEUE_PREFIX);
    replica.process.kill('SIGSTOP');
    try {
      await expect(producer.publish(event)).rejects.toThrow(ReplicasBehindError);
      const posted = await apiClient(api.url, token).post('/events', { events: [event] });
      expect({ status: posted.status, body: posted.body }).toMatchObject({
        status: 503,
        body: { name: 'service_unavailable', message: 'The event queue is unavailable. Try again shortly.' },
      });
    } finally {
      replica.process.kill('SIGCONT');
    }
    // Stopped past the node timeout, the replica was marked failed; the failover below needs it back.
    await eventually(
      () =>
        cluster.replicaOf(QUEUE_PREFIX).then(
          () => true,
          () => false,
        ),
      15_000,
      'the replica back in the cluster',
    );
    await producer.publish(event);
    await eventually(async () => (await eventRows(accountId)).length === 1, 15_000, 'the event stored');
    expect(await eventRows(accountId)).toEqual([{ event_id: event.event_id, rows: 1 }]);
  });
});

describe('a failover', () => {
  it(
    "when the master of the queues' slot is killed while events flow, then every event lands in the database exactly once",
    { timeout: STALLED_JOB_RECOVERY_MS + 30_000 },
    async () => {
      const { accountId } = await newAccount(database.db);
      const events: SuppressionEventInput[] = uniqueEmails(600).map((email) => complaintEvent(accountId, email));
      const duplicatesBefore = await duplicateJobs();
      let rejected = 0;
      let published = 0;

      // A producer as an upstream runs it: a publish that fails is tried again until Redis takes it.
      const publishAll = async (): Promise<void> => {
        for (let start = 0; start < events.length; start += 10) {
          const chunk = events.slice(start, start + 10);
          for (;;) {
            try {
              await producer.publishMany(chunk);
              break;
            } catch {
              rejected += 1;
              await sleep(200);
            }
          }
          published += chunk.length;
          await sleep(25);
        }
      };
      const publishing = publishAll();
      await eventually(() => Promise.resolve(published >= 150), 15_000, 'events flowing');
      const failover = await cluster.killMaster(QUEUE_PREFIX);
      const publishedBeforeRecovery = published;
      await publishing;
      const allPublishedAt = Date.now();

      // A job the dead master had just handed to a worker, whose hand-over the worker never heard, is
      // taken up again once its lock runs out and the stalled-job check finds it: within a minute.
      await eventually(
        async () => (await eventRows(accountId)).length === events.length,
        STALLED_JOB_RECOVERY_MS,
        'every event stored',
      ).catch(() => undefined);
      const storedAfterMs = Date.now() - allPublishedAt;
      const rows = await eventRows(accountId);
      const doubled = rows.filter((row) => row.rows > 1).length;
      const lost = events.length - rows.length;
      console.info(
        `failover: ${events.length} events published (${publishedBeforeRecovery} before the cluster was whole again), ` +
          `${rejected} publish calls rejected and retried, failover ${(failover.failoverMs / 1000).toFixed(1)} s, ` +
          `lost ${lost}, doubled ${doubled}, jobs run twice ${(await duplicateJobs()) - duplicatesBefore}, ` +
          `all stored ${(storedAfterMs / 1000).toFixed(1)} s after the last publish`,
      );
      expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
      expect(await suppressedEmails(accountId)).toHaveLength(events.length);
    },
  );
});

describe('the whole cluster down', () => {
  it('when every node is gone, then GET /ready answers 503 naming redis, and requests are still served', async () => {
    const workersClosing = await closeWorkers();
    console.info(`workers after the failover: ${workersClosing}`);
    await cluster.killAll();
    const { token } = await newAccount(database.db);

    const ready = await apiClient(api.url, null).get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });
    // The rate limiter fails open.
    expect((await apiClient(api.url, token).get('/suppressions')).status).toBe(200);
  });
});
