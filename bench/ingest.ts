/**
 * bench:ingest: the event worker's throughput (BullMQ + validation + PostgreSQL writes) against
 * BullMQ's own throughput with an empty processor, measured in one run on this machine, so the
 * ratio says how much of the queue's capacity the service keeps.
 *
 *   npm run bench:ingest -- [--events N] [--concurrency N] [--batch-size N] [--batch-delay-ms N] [--batches-in-flight N]
 *                           [--pool-size N] [--timeout-s N]
 *
 * Each option may also come from the environment (BENCH_EVENTS, BENCH_CONCURRENCY, BENCH_BATCH_SIZE,
 * BENCH_BATCH_DELAY_MS, BENCH_POOL_SIZE, BENCH_TIMEOUT_S). PostgreSQL and Redis are DATABASE_URL
 * and REDIS_URL, as the service reads them.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Queue, Worker } from 'bullmq';
import { loadConfig, type Config } from '../src/config.js';
import { createDatabase, type Database } from '../src/db/database.js';
import { createEventProducer } from '../src/events/event-producer.js';
import { eventJobId } from '../src/events/job-id.js';
import type { SuppressionEventInput } from '../src/events/event-schema.js';
import { createLogger, type Logger } from '../src/logger.js';
import { DEFAULT_JOB_OPTIONS, EVENTS_QUEUE, KEEP_COMPLETED, KEEP_FAILED } from '../src/queues.js';
import { createRedis } from '../src/redis.js';
import { startEventWorker, type EventWorker } from '../workers/event-worker.js';
import { createAccounts, createBenchDatabase } from './support/bench-database.js';
import { CleanupStack } from './support/cleanup.js';
import { timeUntilCompleted, type CompletionTiming } from './support/completions.js';
import { beforeDeadline, startDeadline, type Deadline } from './support/deadline.js';
import { expectedOutcome, generateEvents } from './support/event-fixtures.js';
import { BenchUsageError, parseIntOptions } from './support/options.js';
import { markdownTable, rate, seconds, writeResults } from './support/report.js';
import { deletePrefix, freshPrefix } from './support/redis-prefix.js';
import { verifyIngest } from './support/verify-ingest.js';

const ACCOUNTS = 1000;
const ENQUEUE_CHUNK = 1000;
const TARGET_RATIO = 0.7;
// Teardown after an abort gets this long before the process exits regardless.
const CLEANUP_GRACE_MS = 30_000;
const RESULTS_PATH = fileURLToPath(new URL('./results/ingest.json', import.meta.url));

interface Settings {
  events: number;
  concurrency: number;
  /** Undefined: the event worker's own default. */
  batchSize: number | undefined;
  batchDelayMs: number | undefined;
  batchesInFlight: number | undefined;
  poolSize: number;
  timeoutS: number;
}

interface Phase {
  enqueueMs: number;
  run: CompletionTiming;
}

function readSettings(config: Config): Settings {
  const options = parseIntOptions({
    events: { flag: 'events', env: 'BENCH_EVENTS', min: 1 },
    concurrency: { flag: 'concurrency', env: 'BENCH_CONCURRENCY', min: 1 },
    batchSize: { flag: 'batch-size', env: 'BENCH_BATCH_SIZE', min: 1 },
    batchDelayMs: { flag: 'batch-delay-ms', env: 'BENCH_BATCH_DELAY_MS', min: 0 },
    batchesInFlight: { flag: 'batches-in-flight', env: 'BENCH_BATCHES_IN_FLIGHT', min: 1 },
    poolSize: { flag: 'pool-size', env: 'BENCH_POOL_SIZE', min: 1 },
    timeoutS: { flag: 'timeout-s', env: 'BENCH_TIMEOUT_S', min: 1 },
  });
  return {
    events: options.events ?? 100_000,
    // The service's defaults, so a bare run measures what production runs.
    concurrency: options.concurrency ?? config.WORKER_CONCURRENCY,
    batchSize: options.batchSize,
    batchDelayMs: options.batchDelayMs,
    batchesInFlight: options.batchesInFlight,
    poolSize: options.poolSize ?? config.DATABASE_POOL_SIZE,
    timeoutS: options.timeoutS ?? 300,
  };
}

/** Runs `work` with a teardown of its own, so one phase's jobs and workers are gone before the next starts. */
async function inPhase<T>(name: string, logger: Logger, work: (cleanup: CleanupStack) => Promise<T>): Promise<T> {
  const cleanup = new CleanupStack();
  try {
    return await work(cleanup);
  } finally {
    for (const failure of await cleanup.runAll()) logger.warn(`${name} cleanup: ${failure}`);
  }
}

/**
 * BullMQ alone: the same jobs (name, data size, job id, job options), the same worker options and
 * concurrency, an empty processor. The ceiling any processor on this queue can reach here.
 */
async function measureBaseline(
  config: Config,
  settings: Settings,
  events: readonly SuppressionEventInput[],
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<Phase> {
  const prefix = freshPrefix('noop');
  const admin = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit admin connection', () => admin.quit());
  cleanup.push(`delete ${prefix} keys`, () => deletePrefix(admin, prefix));

  const queueConnection = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit queue connection', () => queueConnection.quit());
  const queue = new Queue(EVENTS_QUEUE, { connection: queueConnection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
  cleanup.push('close baseline queue', async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  const enqueueStart = performance.now();
  for (let start = 0; start < events.length; start += ENQUEUE_CHUNK) {
    const chunk = events.slice(start, start + ENQUEUE_CHUNK).map((event) => ({
      name: 'bounce',
      data: event,
      opts: { jobId: eventJobId(event.account_id, event.event_id) },
    }));
    await beforeDeadline(deadline, queue.addBulk(chunk));
  }
  const enqueueMs = performance.now() - enqueueStart;

  const workerConnection = createRedis(config.REDIS_URL, 'worker');
  cleanup.push('quit worker connection', () => workerConnection.quit());
  const timed = timeUntilCompleted(
    'BullMQ no-op worker',
    () =>
      new Worker(EVENTS_QUEUE, () => Promise.resolve(), {
        connection: workerConnection,
        prefix,
        concurrency: settings.concurrency,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      }),
    events.length,
    deadline.signal,
  );
  cleanup.push('close baseline worker', () => timed.worker.close());
  return { enqueueMs, run: await timed.finished };
}

/** The real producer, the real event worker, the real database; timed the same way as the baseline. */
async function measureService(
  config: Config,
  settings: Settings,
  db: Database,
  logger: Logger,
  events: readonly SuppressionEventInput[],
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<Phase> {
  const prefix = freshPrefix('service');
  const admin = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit admin connection', () => admin.quit());
  cleanup.push(`delete ${prefix} keys`, () => deletePrefix(admin, prefix));

  const producer = createEventProducer({ connection: config.REDIS_URL, prefix, chunkSize: ENQUEUE_CHUNK });
  cleanup.push('close producer', () => producer.close());
  const enqueueStart = performance.now();
  await beforeDeadline(deadline, producer.publishMany(events));
  const enqueueMs = performance.now() - enqueueStart;

  const workerConnection = createRedis(config.REDIS_URL, 'worker');
  cleanup.push('quit worker connection', () => workerConnection.quit());
  let eventWorker: EventWorker | undefined;
  const timed = timeUntilCompleted(
    'event worker',
    () => {
      eventWorker = startEventWorker({
        db,
        logger,
        connection: workerConnection,
        prefix,
        concurrency: settings.concurrency,
        batchSize: settings.batchSize,
        batchDelayMs: settings.batchDelayMs,
        batchesInFlight: settings.batchesInFlight,
      });
      return eventWorker.worker;
    },
    events.length,
    deadline.signal,
  );
  cleanup.push('close event worker', () => eventWorker?.close() ?? Promise.resolve());
  return { enqueueMs, run: await timed.finished };
}

const TABLE_HEADER = ['run', 'jobs', 'enqueue s', 'process s', 'jobs/s', 'CPU µs/job', 'loop busy', 'retried'];

function tableRow(name: string, phase: Phase): (string | number)[] {
  const { run } = phase;
  return [
    name,
    run.completed,
    seconds(phase.enqueueMs),
    seconds(run.elapsedMs),
    rate(run.jobsPerSecond),
    rate(run.processCpuUsPerJob),
    Number(run.eventLoopBusy.toFixed(2)),
    run.retriedAttempts,
  ];
}

async function run(config: Config, settings: Settings, logger: Logger, deadline: Deadline, cleanup: CleanupStack): Promise<boolean> {
  const bench = await beforeDeadline(deadline, createBenchDatabase(config.DATABASE_URL, logger));
  cleanup.push(`drop database ${bench.name}`, () => bench.drop());
  const db = createDatabase({ url: bench.url, poolSize: settings.poolSize, logger, applicationName: 'bench-ingest' });
  cleanup.push('close database pool', () => db.close());

  const accountIds = await beforeDeadline(deadline, createAccounts(db, ACCOUNTS));
  const events = generateEvents(accountIds, settings.events);
  const expected = expectedOutcome(events);

  const delay = settings.batchDelayMs === undefined ? 'worker default' : `${settings.batchDelayMs} ms`;
  const batch =
    `batch size ${settings.batchSize ?? 'worker default'}, batch delay ${delay}, ` +
    `batches in flight ${settings.batchesInFlight ?? 'worker default'}`;
  console.log(
    `bench:ingest: ${settings.events} events over ${ACCOUNTS} accounts (${expected.suppressing} suppressing, ` +
      `${expected.suppressions} distinct pairs); concurrency ${settings.concurrency}, ${batch}, pool ${settings.poolSize}; ` +
      `database ${bench.name}; ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
  );

  const baseline = await inPhase('baseline', logger, (phaseCleanup) => measureBaseline(config, settings, events, deadline, phaseCleanup));
  const service = await inPhase('service', logger, (phaseCleanup) =>
    measureService(config, settings, db, logger, events, deadline, phaseCleanup),
  );
  const { problems, warnings } = await beforeDeadline(deadline, verifyIngest(db, expected));
  const ratio = service.run.jobsPerSecond / baseline.run.jobsPerSecond;

  console.log('');
  console.log(markdownTable(TABLE_HEADER, [tableRow('BullMQ no-op worker', baseline), tableRow('event worker + PostgreSQL', service)]));
  console.log('');
  console.log(`ratio service/baseline: ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  console.log(problems.length === 0 ? 'verification: ok' : `verification FAILED:\n  ${problems.join('\n  ')}`);
  for (const warning of warnings) console.log(`warning: ${warning}`);

  await writeResults(RESULTS_PATH, {
    benchmark: 'ingest',
    finishedAt: new Date().toISOString(),
    // Other work on the machine skews both figures; the load average at the end tells a reader how quiet it was.
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, node: process.version, loadAverage1m: os.loadavg()[0] ?? null },
    settings: { ...settings, accounts: ACCOUNTS, batchSize: settings.batchSize ?? null, batchDelayMs: settings.batchDelayMs ?? null, batchesInFlight: settings.batchesInFlight ?? null },
    expected,
    baseline: { enqueueMs: baseline.enqueueMs, ...baseline.run },
    service: { enqueueMs: service.enqueueMs, ...service.run },
    ratio,
    targetRatio: TARGET_RATIO,
    verified: problems.length === 0,
    problems,
    warnings,
  });
  console.log(`figures written to ${RESULTS_PATH}`);
  return problems.length === 0;
}

async function main(): Promise<number> {
  const config = loadConfig();
  const settings = readSettings(config);
  const logger = createLogger('warn');
  const deadline = startDeadline(settings.timeoutS * 1000, 'bench:ingest');
  deadline.signal.addEventListener('abort', () => {
    // A step stuck on a dead connection must not keep the process (and its teardown) forever.
    setTimeout(() => {
      process.stderr.write('bench:ingest: teardown did not finish in time; exiting without it\n');
      process.exit(1);
    }, CLEANUP_GRACE_MS).unref();
  });

  const cleanup = new CleanupStack();
  let ok = false;
  try {
    ok = await run(config, settings, logger, deadline, cleanup);
  } catch (error) {
    process.stderr.write(`bench:ingest failed: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    for (const failure of await cleanup.runAll()) process.stderr.write(`bench:ingest cleanup: ${failure}\n`);
    deadline.clear();
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Only argument and configuration errors get here; they need no stack trace.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench:ingest: ${error instanceof BenchUsageError ? 'usage: ' : ''}${message}\n`);
    process.exitCode = 1;
  },
);
