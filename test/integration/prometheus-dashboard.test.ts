import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import { createFeed } from '../../src/feeds/feed-repository.js';
import { feedPath, newFeedId, type Feed } from '../../src/feeds/feed.js';
import { feedSettings } from '../../src/feeds/feed-settings.js';
import { createLogger } from '../../src/logger.js';
import { BATCHES_QUEUE, EVENTS_QUEUE, MAIL_QUEUE, MAINTENANCE_QUEUE } from '../../src/queues.js';
import { WEBHOOK_DELIVERIES_QUEUE } from '../../src/webhooks/delivery-queue.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { apiClient, type ApiClient } from '../support/api-client.js';
import { startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmail } from '../support/emails.js';
import { startDovecot, type RunningDovecot } from '../support/dovecot.js';
import { fixture } from '../support/feed-contract.js';
import { basicAuth } from '../support/feed-signers.js';
import { freePort } from '../support/free-port.js';
import { dsn } from '../support/mail-messages.js';
import {
  prometheusBinary,
  promtool,
  startPrometheus,
  type RunningPrometheus,
  type Series,
} from '../support/prometheus.js';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica-cluster.js';
import { sharedBuild } from '../support/shared-build.js';
import { openSmtpSession } from '../support/smtp-session.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { eventually } from '../support/test-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const DASHBOARD = `${DEPLOY}grafana/suppression-list.json`;
const ALERTS = `${DEPLOY}prometheus/alerts.yml`;
const JOB = 'suppression-list';
const METRICS_TOKEN = `metrics-${randomUUID()}`;
const DATABASE = 'sl_dashboard';
const BOUNCE_DOMAIN = 'bounces.dashboard.example';

/**
 * What Grafana puts in place of its variables for a range of `rangeSeconds` scraped every second:
 * `$__rate_interval` is four scrape intervals, the job variable's "All" is its `allValue`.
 */
function substitute(expr: string, rangeSeconds: number): string {
  return expr.replaceAll('$__rate_interval', '4s').replaceAll('$__range', `${rangeSeconds}s`).replaceAll('$job', '.+');
}

interface DataSource {
  type: string;
  uid: string;
}

interface Panel {
  id: number;
  title: string;
  type: string;
  datasource?: DataSource;
  targets?: { expr: string; datasource: DataSource }[];
}

interface Dashboard {
  panels: Panel[];
  templating: { list: { name: string; type: string; allValue?: string }[] };
}

/** The alerts of the rules file, by name, as `- alert: Name` lines (the file's one shape). */
function alertNames(): string[] {
  return [...readFileSync(ALERTS, 'utf8').matchAll(/^\s*- alert: (\S+)$/gm)].map((match) => match[1] as string);
}

let cluster: ReplicaCluster;
let primary: Database;
let service: ServiceProcess;
let prometheus: RunningPrometheus;
let receiver: WebhookReceiver;
let producer: EventProducer;
let dovecot: RunningDovecot;
let smtpPort: number;
const prefix = `test-${randomUUID().slice(0, 10)}`;
let redisUrl: string;

/** A bounce to the mail listener over SMTP, and another into the IMAP mailbox the service reads. */
async function mail(): Promise<void> {
  const message = () =>
    dsn(`bounces@${BOUNCE_DOMAIN}`, [
      { recipient: uniqueEmail(), status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);
  const session = await openSmtpSession(smtpPort);
  await session.command('EHLO mta.example.net');
  await session.command('MAIL FROM:<>');
  await session.command(`RCPT TO:<bounces@${BOUNCE_DOMAIN}>`);
  await session.command('DATA');
  session.write(Buffer.concat([message(), Buffer.from('.\r\n')]));
  expect((await session.reply()).code).toBe(250);
  await session.command('QUIT');
  session.destroy();
  await dovecot.deliver(message());
}

/** What a platform does in a few seconds: checks, lookups, events of each kind, a feed's requests, changes for webhooks, bounces by mail. */
async function traffic(account: TestAccount, api: ApiClient, feed: Feed, password: string, username: string) {
  const suppressed = uniqueEmail();
  expect((await api.post('/suppressions', { email: suppressed })).status).toBe(201);
  for (let i = 0; i < 5; i++) {
    expect(
      (await api.post('/suppressions/check', { emails: [suppressed, uniqueEmail(), 'not-an-address'] })).status,
    ).toBe(200);
    expect((await api.get(`/suppressions/${encodeURIComponent(suppressed)}`)).status).toBe(200);
  }
  const senderBlocked = bounceEvent(account.accountId, uniqueEmail());
  senderBlocked.bounce = {
    type: 'permanent',
    sub_type: 'general',
    status: '5.7.1',
    diagnostic: '550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org',
  };
  await producer.publishMany([
    bounceEvent(account.accountId, uniqueEmail()),
    senderBlocked,
    complaintEvent(account.accountId, uniqueEmail()),
    // An account that does not exist: the job fails for good.
    bounceEvent(randomUUID(), uniqueEmail()),
  ]);
  // A mail system's own events over HTTP, without the library.
  expect((await api.post('/events', { events: [bounceEvent(account.accountId, uniqueEmail())] })).status).toBe(202);
  const body = fixture('postmark', 'bounce-hard.json').replace('john@example.com', uniqueEmail());
  const post = (authorization: string) =>
    fetch(`${service.url}${feedPath(feed.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body,
    });
  expect((await post(basicAuth(username, password))).status).toBe(200);
  expect((await post(basicAuth(username, `${password}x`))).status).toBe(401);
  await mail();
}

describe('the dashboard and the alert rules in a real Prometheus scraping the process of npm start', () => {
  beforeAll(async () => {
    prometheusBinary();
    redisUrl = inject('redisUrl');
    let dir: string;
    [dir, cluster, receiver, dovecot, smtpPort] = await Promise.all([
      sharedBuild(),
      startReplicaCluster(),
      startWebhookReceiver(),
      startDovecot(),
      freePort(),
    ]);
    const admin = new pg.Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    // The service applies the migrations as it starts; the replica follows the primary's WAL.
    service = await startServiceProcess({ dir }, 'cli/main.js start', {
      DATABASE_URL: cluster.primaryUrlFor(DATABASE),
      DATABASE_READ_URL: cluster.replicaUrlFor(DATABASE),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      REDIS_KEY_PREFIX: `${prefix}:`,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_TOKEN,
      // The receiver is on loopback: a development setting, which production refuses.
      NODE_ENV: 'development',
      WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true',
      RATE_LIMIT_PER_SECOND: '1000',
      // The mail listener and the IMAP poller, beside the events workers.
      SMTP_PORT: String(smtpPort),
      BOUNCE_DOMAINS: BOUNCE_DOMAIN,
      IMAP_URL: dovecot.url(),
      IMAP_PASSWORD: dovecot.password,
      IMAP_POLL_SECONDS: '1',
    });
    primary = createDatabase({ url: cluster.primaryUrlFor(DATABASE), poolSize: 2, logger: createLogger('silent') });
    producer = createEventProducer({ connection: redisUrl, prefix });
    prometheus = await startPrometheus({
      job: JOB,
      target: { address: new URL(service.url as string).host, bearerToken: METRICS_TOKEN },
      ruleFiles: [ALERTS],
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await service?.stop();
    await producer?.close();
    await primary?.close();
    await receiver?.close();
    await dovecot?.stop();
    await cluster?.remove();
    await Promise.all(
      [EVENTS_QUEUE, BATCHES_QUEUE, MAINTENANCE_QUEUE, MAIL_QUEUE, WEBHOOK_DELIVERIES_QUEUE].map(async (name) => {
        const queue = new Queue(name, { connection: { url: redisUrl }, prefix });
        await queue.obliterate({ force: true });
        await queue.close();
      }),
    );
  });

  it('when the service has served a few seconds of traffic and of mail, then every query of every panel returns data and Prometheus has loaded every alert rule', async () => {
    const started = Math.floor(Date.now() / 1000) - 2;
    const account = await newAccount(primary);
    const api = apiClient(service.url as string, account.token);
    const closedPort = await freePort();
    for (const endpoint of [`${receiver.url}/hook`, `http://127.0.0.1:${closedPort}/hook`]) {
      const created = await api.post('/webhooks', { endpoint, events: ['suppression.added'] });
      expect(created.status).toBe(201);
    }
    const settings = feedSettings('postmark', {});
    const feed = await createFeed(primary, {
      id: newFeedId(),
      accountId: account.accountId,
      provider: 'postmark',
      verification: settings.verification,
      scopeFrom: null,
    });
    const { username, password } = settings.shown as { username: string; password: string };

    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    // Every panel asks the data source the dashboard's list chose, and "All" jobs is what
    // `substitute` puts in place of the job variable.
    const fromChosenSource = { type: 'prometheus', uid: '${datasource}' };
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const panel of panels) {
      expect(panel.datasource, panel.title).toEqual(fromChosenSource);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource, panel.title).toEqual(fromChosenSource);
    }
    expect(dashboard.templating.list).toMatchObject([
      { name: 'datasource', type: 'datasource' },
      { name: 'job', type: 'query', allValue: '.+' },
    ]);
    const queries = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })),
    );
    expect(queries.length).toBeGreaterThanOrEqual(38);
    const MAIL_METRICS = [
      'smtp_messages_total',
      'smtp_connections',
      'smtp_connections_refused_total',
      'mail_messages_total',
      'mail_records_total',
      'imap_messages_total',
    ];
    for (const name of MAIL_METRICS)
      expect(
        queries.some(({ expr }) => expr.includes(`${name}{`)),
        name,
      ).toBe(true);
    const results = new Map<string, Series[]>();
    const withoutData = (): string[] =>
      queries
        .filter(({ expr }) => {
          const series = results.get(expr) ?? [];
          return !series.some((one) => one.values.some(([, value]) => Number.isFinite(Number(value))));
        })
        .map(({ title, expr }) => `${title}: ${expr}`);
    // Rounds of traffic, each followed by a scrape, until every panel shows it: a counter's first
    // sample shows no rate, the next one that moved does (two rounds, unless what the workers do
    // after a round's requests lands after its scrape; then a later round shows it).
    for (let round = 1; round <= 15; round++) {
      await traffic(account, api, feed, password, username);
      await prometheus.nextScrape();
      const end = Math.floor(Date.now() / 1000);
      await Promise.all(
        queries.map(async ({ expr }) =>
          results.set(expr, await prometheus.queryRange(substitute(expr, end - started), started, end)),
        ),
      );
      if (round >= 2 && withoutData().length === 0) break;
    }

    expect(withoutData()).toEqual([]);
    for (const { expr } of queries) expect(substitute(expr, 60)).not.toContain('$');
    const jobs = await prometheus.api<string[]>('label/job/values?match[]=http_request_duration_seconds_count');
    expect(jobs).toEqual([JOB]);

    const loaded = async () =>
      (await prometheus.api<{ groups: { file: string; rules: { name: string; health: string }[] }[] }>('rules')).groups;
    await eventually(
      async () => (await loaded()).every((group) => group.rules.every((rule) => rule.health === 'ok')),
      10_000,
      'every rule evaluated',
    ).catch(() => undefined);
    const groups = await loaded();
    expect(groups.map((group) => group.file)).toEqual([ALERTS]);
    const rules = groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.name).sort()).toEqual(alertNames().sort());
    expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  }, 50_000);
});

describe('the alert rules under promtool', () => {
  it('when promtool checks the rules and runs their unit tests, then both succeed and every alert is tested firing', async () => {
    const checked = await promtool(['check', 'rules', 'alerts.yml'], `${DEPLOY}prometheus`);
    expect(checked, checked.output).toMatchObject({ code: 0 });
    expect(checked.output).toContain(`SUCCESS: ${alertNames().length} rules found`);

    const tested = await promtool(['test', 'rules', 'alerts.test.yml'], `${DEPLOY}prometheus`);
    expect(tested, tested.output).toMatchObject({ code: 0 });
    expect(tested.output).toContain('SUCCESS');

    const tests = readFileSync(`${DEPLOY}prometheus/alerts.test.yml`, 'utf8');
    const firing = new Set(
      [...tests.matchAll(/alertname: (\S+)\n\s+exp_alerts:\n\s+- exp_labels/g)].map((match) => match[1]),
    );
    expect([...firing].sort()).toEqual(alertNames().sort());
  });
});
