/**
 * npm run chaos: the service under faults, on stores of its own. Worker processes (the built
 * `workers/main.js`) are killed with SIGKILL at random and started again, PostgreSQL is restarted
 * once and Redis once, while events are published, a provider feed is posted to and changes are
 * delivered to a webhook endpoint on loopback. Once the backlog is worked off, every event is
 * looked for in the database. Ends with
 *
 *   chaos: N events, K kills, L lost, D doubled, W wrong
 *
 * and exits non-zero unless L, D and W are 0 (and every change was delivered). With
 * `--redis-sigkill`, Redis is killed with SIGKILL instead of shut down, and what it had not yet
 * written to its AOF is lost: the run reports it and fails only on doubled or wrong rows.
 *
 *   npm run chaos -- [--events N] [--feed-requests N] [--workers N] [--kill-every-ms N] [--timeout-s N] [--redis-sigkill]
 *
 * A test with a verdict, but a program rather than a vitest file (its name does not end in
 * `.test.ts`): it needs stores of its own and minutes of load, so `npm test` leaves it out.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { issueApiKey } from '../../src/accounts/api-key-repository.js';
import { ensureAccount } from '../../src/accounts/account-repository.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { createDatabase } from '../../src/db/database.js';
import { createFeed } from '../../src/feeds/feed-repository.js';
import { migrate } from '../../src/db/migrate.js';
import { normalizeEmail } from '../../src/domain/email.js';
import { createEventProducer } from '../../src/events/event-producer.js';
import { newFeedId, feedPath } from '../../src/feeds/feed.js';
import { feedEventId } from '../../src/feeds/event-ids.js';
import { newPostmarkCredentials } from '../../src/feeds/providers/postmark/credentials.js';
import { createLogger } from '../../src/logger.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { createRedis } from '../../src/redis.js';
import { Queue } from 'bullmq';
import { buildService, startServiceProcess, type BuiltService, type ServiceProcess } from '../support/built-service.js';
import { startChaosReceiver } from './receiver.js';
import { startPrivatePostgres, startPrivateRedis } from './stores.js';
import { verifyChaos, type ExpectedEvent } from './verify.js';
import { CleanupStack } from '../../bench/common/cleanup.js';
import { beforeDeadline, startDeadline, type Deadline } from '../../bench/common/deadline.js';
import { generateEvents } from '../../bench/common/event-fixtures.js';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { decideEvent } from '../../src/events/event-decision.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';

interface Options {
  events: number;
  feedRequests: number;
  workers: number;
  killEveryMs: number;
  timeoutS: number;
  redisSigkill: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '100000' },
      'feed-requests': { type: 'string', default: '2000' },
      workers: { type: 'string', default: '3' },
      'kill-every-ms': { type: 'string', default: '3000' },
      'timeout-s': { type: 'string', default: '600' },
      'redis-sigkill': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const whole = (name: string, raw: string, min: number): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
    return value;
  };
  return {
    events: whole('events', values.events, 1),
    feedRequests: whole('feed-requests', values['feed-requests'], 0),
    workers: whole('workers', values.workers, 1),
    killEveryMs: whole('kill-every-ms', values['kill-every-ms'], 100),
    timeoutS: whole('timeout-s', values['timeout-s'], 1),
    redisSigkill: values['redis-sigkill'],
  };
}

const log = (line: string): void => console.log(`chaos: ${line}`);

/** Retries until it works, as a producer or a provider does while the service cannot take its work. */
async function untilItWorks<T>(deadline: Deadline, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await beforeDeadline(deadline, work());
    } catch (error) {
      if (deadline.signal.aborted) throw error;
      await sleep(250);
    }
  }
}

/** The worker processes, each killed and started again as the chaos loop says. */
class WorkerPool {
  kills = 0;
  private readonly running: (ServiceProcess | undefined)[];

  constructor(
    private readonly built: BuiltService,
    private readonly env: Record<string, string>,
    size: number,
  ) {
    this.running = Array.from({ length: size }, () => undefined);
  }

  async startAll(deadline: Deadline): Promise<void> {
    await Promise.all(this.running.map((_, index) => this.start(index, deadline)));
  }

  private async start(index: number, deadline: Deadline): Promise<void> {
    this.running[index] = await untilItWorks(deadline, () =>
      startServiceProcess(this.built, 'workers/main.js', this.env),
    );
  }

  async killOne(deadline: Deadline): Promise<void> {
    const index = Math.floor(Math.random() * this.running.length);
    await this.running[index]?.stop('SIGKILL');
    this.kills += 1;
    await this.start(index, deadline);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running.map(async (worker) => worker?.stop()));
  }
}

async function main(): Promise<void> {
  const settings = options();
  const deadline = startDeadline(settings.timeoutS * 1000, 'npm run chaos');
  const cleanup = new CleanupStack();
  const logger = createLogger('warn');
  let failed: boolean;
  try {
    log('building the service and starting its own PostgreSQL and Redis');
    const [built, postgres, redis] = await Promise.all([buildService(), startPrivatePostgres(), startPrivateRedis()]);
    cleanup.push('remove the build', () => built.remove());
    cleanup.push('remove the PostgreSQL cluster', () => postgres.remove());
    cleanup.push('stop Redis', () => redis.remove());
    await migrate(postgres.url, logger);
    const db = createDatabase({ url: postgres.url, logger, applicationName: 'chaos' });
    cleanup.push('close the pool', () => db.close());

    const accounts = await Promise.all([0, 1, 2, 3].map((index) => ensureAccount(db, `chaos-${index}`)));
    // The check expects what each event does on its own; the default soft-bounce threshold would make
    // an address's third counted bounce suppress it as well.
    await Promise.all(accounts.map((account) => updateSettings(db, account.id, { soft_bounce_threshold: null })));
    const [hooked, fed] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    const key = await issueApiKey(db, { accountName: hooked.name, permission: 'full_access', name: 'chaos' });
    const credentials = newPostmarkCredentials();
    const feed = await createFeed(db, {
      id: newFeedId(),
      accountId: fed.id,
      provider: 'postmark',
      verification: credentials.stored,
    });

    const receiver = await startChaosReceiver();
    cleanup.push('close the receiver', () => receiver.close());
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'chaos',
      // The receiver is on loopback: a development setting, which production refuses.
      NODE_ENV: 'development',
      WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true',
    };
    const api = await startServiceProcess(built, 'api/main.js', { ...env, HOST: '127.0.0.1', PORT: '0' });
    cleanup.push('stop the API', () => api.stop());
    const workers = new WorkerPool(built, env, settings.workers);
    cleanup.push('stop the workers', () => workers.stopAll());
    await workers.startAll(deadline);

    const created = await fetch(`${api.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: receiver.url, events: ['suppression.added'] }),
    });
    if (created.status !== 201)
      throw new Error(`the webhook was not created: ${created.status} ${await created.text()}`);
    receiver.secret = ((await created.json()) as { signing_secret: string }).signing_secret;

    const events = generateEvents(
      accounts.map((account) => account.id),
      settings.events,
      { seed: Date.now() % 1_000_000 },
    );
    const expected: ExpectedEvent[] = events.map((event) => ({
      accountId: event.account_id,
      eventId: event.event_id,
      email: normalizeEmail(event.email),
      type: event.type,
      suppressing: decideEvent(parseSuppressionEvent(event), DEFAULT_BOUNCE_ACTIONS).origin !== null,
    }));

    const producer = createEventProducer({ connection: redis.url, prefix: 'chaos', connectTimeoutMs: 2000 });
    cleanup.push('close the producer', () => producer.close());
    let published = 0;
    const publishing = (async () => {
      for (let start = 0; start < events.length; start += 1000) {
        const chunk = events.slice(start, start + 1000);
        // A retried chunk keeps its job ids: jobs Redis already took are not added twice.
        await untilItWorks(deadline, () => producer.publishMany(chunk));
        published = start + chunk.length;
      }
    })();

    let posted = 0;
    const feedUrl = `${api.url}${feedPath(feed.id)}`;
    const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    const feeding = Promise.all(
      [0, 1, 2, 3].map(async (sender) => {
        for (let index = sender; index < settings.feedRequests; index += 4) {
          const email = `feed-${index}@example.net`;
          const id = 9_000_000 + index;
          const body = JSON.stringify({
            RecordType: 'Bounce',
            ID: id,
            Type: 'HardBounce',
            TypeCode: 1,
            MessageID: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
            Email: email,
            BouncedAt: new Date().toISOString(),
            Details: 'smtp; 550 5.1.1 user unknown',
          });
          // A provider retries until it gets a 2xx: a 503 while Redis restarts is retried.
          await untilItWorks(deadline, async () => {
            const response = await fetch(feedUrl, {
              method: 'POST',
              headers: { authorization, 'content-type': 'application/json' },
              body,
            });
            await response.arrayBuffer();
            if (response.status !== 200) throw new Error(`feed answered ${response.status}`);
          });
          expected.push({
            accountId: fed.id,
            eventId: feedEventId('postmark', String(id), email),
            email,
            type: 'bounce',
            suppressing: true,
          });
          posted += 1;
        }
      }),
    );

    let loadDone = false;
    let postgresRestarted = false;
    let redisRestarted = false;
    const chaos = (async () => {
      while (!loadDone) {
        await sleep(settings.killEveryMs);
        await workers.killOne(deadline);
        if (!postgresRestarted && published >= settings.events * 0.3) {
          postgresRestarted = true;
          log(`restarting PostgreSQL (${published} events published)`);
          await postgres.restart();
        }
        if (!redisRestarted && published >= settings.events * 0.6) {
          redisRestarted = true;
          const how = settings.redisSigkill ? 'sigkill' : 'shutdown';
          log(`restarting Redis with ${how === 'sigkill' ? 'SIGKILL' : 'SHUTDOWN'} (${published} events published)`);
          await redis.restart(how);
        }
      }
    })();

    log(`publishing ${settings.events} events and posting ${settings.feedRequests} feed requests`);
    await beforeDeadline(deadline, Promise.all([publishing, feeding]));
    loadDone = true;
    await beforeDeadline(deadline, chaos);
    log(`load done: ${published} events published, ${posted} feed requests accepted, ${workers.kills} kills`);

    const connection = createRedis(redis.url, 'producer');
    const queue = new Queue(EVENTS_QUEUE, { connection, prefix: 'chaos' });
    cleanup.push('close the queue', async () => {
      await queue.close();
      connection.disconnect();
    });
    const total = expected.length;
    // Waits for the backlog; once nothing is queued and nothing has moved for half a minute, what
    // is missing will not come.
    let last = '';
    let stillSince = Date.now();
    for (;;) {
      const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
      const failedJobs = await queue.getFailedCount();
      const { rows } = await db.query<{ events: string; hooked: string }>({
        text: `SELECT (SELECT count(*) FROM suppression_events) AS events,
                      (SELECT count(*) FROM suppressions WHERE account_id = $1) AS hooked`,
        values: [hooked.id],
      });
      const open = Object.values(counts).reduce((sum, value) => sum + value, 0);
      const recorded = Number(rows[0]?.events ?? 0);
      const announced = receiver.added.size;
      if (open === 0 && recorded >= total && announced >= Number(rows[0]?.hooked ?? 0)) break;
      const now = `${open} jobs open, ${failedJobs} failed, ${recorded} of ${total} events recorded, ${announced} changes delivered`;
      if (now !== last) stillSince = Date.now();
      else if (open === 0 && Date.now() - stillSince > 30_000) break;
      if (deadline.signal.aborted) break;
      last = now;
      log(`waiting: ${now}`);
      await sleep(2000);
    }
    log(`event jobs failed for good: ${await queue.getFailedCount()}`);

    const verdict = await verifyChaos(db, expected);
    const { rows: entries } = await db.query<{ email: string }>({
      text: 'SELECT email FROM suppressions WHERE account_id = $1',
      values: [hooked.id],
    });
    const undelivered = entries.filter((entry) => !receiver.added.has(entry.email)).length;
    log(
      `webhooks: ${entries.length} changes, ${receiver.deliveries} deliveries verified, ${receiver.redelivered} redelivered, ` +
        `${undelivered} undelivered, ${receiver.forged} unverifiable`,
    );
    for (const detail of verdict.details) log(`wrong: ${detail}`);
    console.log(
      `chaos${settings.redisSigkill ? ' (Redis SIGKILL)' : ''}: ${total} events, ${workers.kills} kills, ` +
        `${verdict.lost} lost, ${verdict.doubled} doubled, ${verdict.wrong} wrong`,
    );
    const lossesCount = !settings.redisSigkill;
    failed =
      verdict.doubled > 0 ||
      verdict.wrong > 0 ||
      receiver.forged > 0 ||
      (lossesCount && (verdict.lost > 0 || undelivered > 0));
  } finally {
    deadline.clear();
    for (const failure of await cleanup.runAll()) console.error(`cleanup: ${failure}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
