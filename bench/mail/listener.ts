/**
 * npm run bench:smtp: messages a second through the SMTP listener (src/mail/listener/), answered
 * 250, read by the mail worker and applied by the event worker (end to end), with the workers in
 * the listener's process as the service runs them, against a baseline measured in the same run: the
 * same messages queued by the producer directly. Then the loss run (kill-run.ts): the workers in a
 * process of their own, killed with SIGKILL half way and started again; every message answered 250
 * must be applied. Options: --messages N (BENCH_SMTP_MESSAGES, default 800), --clients N
 * (BENCH_SMTP_CLIENTS, default 16: SMTP sessions at once, each sending its share one after another,
 * as an MTA's connection cache does), --kill-messages N (BENCH_SMTP_KILL_MESSAGES, default 1000; 0
 * leaves the loss run out).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { startMailListener } from '../../src/mail/listener/mail-listener.js';
import { createMailProducer } from '../../src/mail/messages/mail-producer.js';
import { createRedis } from '../../src/redis.js';
import { startEventWorker } from '../../workers/event-worker.js';
import { startMailWorker } from '../../workers/mail-worker.js';
import { createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, startDeadline } from '../common/deadline.js';
import { parseIntOptions } from '../common/options.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';
import { markdownTable, rate, seconds } from '../common/report.js';
import { killRun, type KillRunResult } from './kill-run.js';
import { secondsUntil } from './progress.js';
import { BENCH_DOMAIN, benchMessages, queueDirectly, sendOverSmtp, type Sent } from './smtp-lanes.js';

const options = parseIntOptions({
  messages: { flag: 'messages', env: 'BENCH_SMTP_MESSAGES', min: 1 },
  clients: { flag: 'clients', env: 'BENCH_SMTP_CLIENTS', min: 1 },
  killMessages: { flag: 'kill-messages', env: 'BENCH_SMTP_KILL_MESSAGES', min: 0 },
});
const MESSAGES = options.messages ?? 800;
const CLIENTS = options.clients ?? 16;
const KILL_MESSAGES = options.killMessages ?? 1000;
const WARM_UP = 100;
const env = loadConfig();

interface Measured {
  sent: Sent;
  acceptedS: number;
  readS: number;
  appliedS: number;
  /** CPU time of this process (senders, listener, workers) per message, in ms. */
  cpuMs: number;
}

const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');

function report(loadAtStart: number[], direct: Measured, smtp: Measured, killed: KillRunResult | undefined): void {
  const cpus = os.cpus();
  console.log(`Machine: ${cpus.length} cores, ${cpus[0]?.model ?? 'unknown'}; Node ${process.version}`);
  console.log(`Load average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(os.loadavg())} at the end`);
  console.log(`${MESSAGES} DSNs each way, ${CLIENTS} clients at once\n`);
  const row = (path: string, { sent, acceptedS, readS, appliedS, cpuMs }: Measured) => [
    path,
    rate(sent.accepted.length / acceptedS),
    rate(sent.accepted.length / readS),
    rate(sent.accepted.length / appliedS),
    seconds(appliedS * 1000),
    Math.round(cpuMs * 100) / 100,
    sent.refused,
  ];
  const header = ['path', 'accepted/s', 'read/s', 'applied/s (end to end)', 'all applied after s'];
  console.log(
    markdownTable(
      [...header, 'CPU ms a message, this process', 'not 250'],
      [
        row('producer.queue, workers in this process (baseline)', direct),
        row('SMTP listener, workers in this process', smtp),
      ],
    ),
  );
  if (!killed) return;
  const { sent, acceptedS, appliedS, atKill, restartS, lost } = killed;
  console.log(
    `\n${KILL_MESSAGES} DSNs to the listener, the workers in a process of their own (workers/main.ts), killed ` +
      `(SIGKILL) once ${atKill.read} were read and ${atKill.applied} applied, holding ${atKill.mailJobs} mail jobs ` +
      `and ${atKill.eventJobs} event jobs, ` +
      `and started again (running after ${seconds(restartS * 1000)} s); the jobs it held run again ` +
      'once their locks run out (30 s, checked every 30 s):\n',
  );
  console.log(
    markdownTable(
      ['answered 250', 'not 250', 'accepted/s', 'applied', 'lost', 'all applied after s'],
      [
        [
          sent.accepted.length,
          sent.refused,
          rate(sent.accepted.length / acceptedS),
          sent.accepted.length - lost,
          lost,
          seconds(appliedS * 1000),
        ],
      ],
    ),
  );
  if (lost > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  const cleanup = new CleanupStack();
  const deadline = startDeadline(300_000, 'the SMTP listener benchmark');
  const logger = createLogger('silent');
  const loadAtStart = os.loadavg();
  try {
    const database = await createBenchDatabase(env.DATABASE_URL, logger);
    cleanup.push('drop the database', () => database.drop());
    const db = createDatabase({ url: database.url, poolSize: 10, logger });
    cleanup.push('close the pool', () => db.close());
    const [accountId] = await createAccounts(db, 1);
    const prefix = freshPrefix('smtp');
    const connection = createRedis(env.REDIS_URL, 'worker');
    cleanup.push('close Redis', () => connection.quit());
    cleanup.push('delete the queue keys', () => deletePrefix(connection, prefix));
    const settings = {
      QUEUE_PREFIX: prefix,
      BOUNCE_DOMAINS: BENCH_DOMAIN,
      // Reports to the domain act for the account without a return path: every message makes an event.
      MAIL_UNSIGNED_DOMAINS: `${BENCH_DOMAIN}=${accountId}`,
    };
    const config = loadConfig({
      ...process.env,
      ...settings,
      SMTP_PORT: '0',
      SMTP_MAX_CONNECTIONS: String(CLIENTS + 10),
      SMTP_MESSAGES_PER_MINUTE_PER_CLIENT: String(100 * (MESSAGES + KILL_MESSAGES)),
      LOG_LEVEL: 'silent',
    });
    const producer = createMailProducer({ connection: env.REDIS_URL, prefix });
    cleanup.push('close the producer', () => producer.close());
    const listener = await startMailListener({ ...config, SMTP_PORT: 0 }, { producer, logger });
    cleanup.push('close the listener', () => listener.close());
    const deps = { db, logger, connection };
    const workers = [startEventWorker(config, deps), startMailWorker(config, deps)];
    let workersClosed: Promise<unknown> | undefined;
    const closeWorkers = () => (workersClosed ??= Promise.all(workers.map((worker) => worker.close())));
    cleanup.push('close the workers', closeWorkers);

    let total = 0;
    const measure = async (send: () => Promise<Sent>): Promise<Measured> => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const sent = await beforeDeadline(deadline, send());
      const acceptedS = (performance.now() - started) / 1000;
      total += sent.accepted.length;
      const done = await secondsUntil(db, deadline, total, started);
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / sent.accepted.length;
      return { sent, acceptedS, readS: done.read, appliedS: done.applied, cpuMs };
    };

    // A first round, not measured, so that neither path pays for the workers' warming up.
    await measure(() => queueDirectly(producer, benchMessages(WARM_UP, 'warm-up'), CLIENTS));
    const direct = await measure(() => queueDirectly(producer, benchMessages(MESSAGES, 'direct'), CLIENTS));
    const smtp = await measure(() => sendOverSmtp(listener.port, benchMessages(MESSAGES, 'smtp'), CLIENTS));
    await closeWorkers();
    const killed =
      KILL_MESSAGES === 0
        ? undefined
        : await killRun({
            db,
            deadline,
            cleanup,
            port: listener.port,
            connection,
            prefix,
            workerEnv: { ...settings, DATABASE_URL: database.url, REDIS_URL: env.REDIS_URL, WORKERS: 'events' },
            before: total,
            messages: KILL_MESSAGES,
            clients: CLIENTS,
          });
    report(loadAtStart, direct, smtp, killed);
  } finally {
    deadline.clear();
    const failures = await cleanup.runAll();
    for (const failure of failures) console.error(`cleanup: ${failure}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
