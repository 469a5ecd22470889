/**
 * bench:ingest: the event worker's throughput (BullMQ + validation + PostgreSQL writes) against
 * BullMQ's own throughput with an empty processor, measured in one run on this machine, so the
 * ratio says how much of the queue's capacity the service keeps.
 *
 *   npm run bench:ingest -- [--events N] [--concurrency N] [--batch-size N] [--batch-delay-ms N] [--batches-in-flight N]
 *                           [--pool-size N] [--timeout-s N] [--rounds N] [--webhooks N] [--deliver-after 1]
 *                           [--soft-bounce-threshold N]
 *
 * `--webhooks N` gives N of the 1,000 accounts a webhook for both change events, pointed at a receiver
 * on loopback, and runs the webhook worker beside the event worker; deliveries are waited for after each
 * service round, outside its timing, and counted. With `--deliver-after 1` the webhook worker runs only
 * then, so the rounds measure what the outbox alone costs the ingest. `--soft-bounce-threshold N` sets
 * that threshold (7-day window) on every account, so soft bounces are counted as they are written.
 * `--label-rule 1` runs the whole measurement four times in one run, with the label rule the service
 * had before it classified bounces and with the classifier, in the order label, classifier,
 * classifier, label, and compares their means: the workload's bounces carry the diagnostics real
 * providers send (unknown users, full mailboxes, block lists).
 *
 * Each option may also come from the environment (BENCH_EVENTS, BENCH_CONCURRENCY, BENCH_BATCH_SIZE,
 * BENCH_BATCH_DELAY_MS, BENCH_POOL_SIZE, BENCH_TIMEOUT_S). PostgreSQL and Redis are DATABASE_URL
 * and REDIS_URL, as the service reads them.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { CleanupStack } from '../common/cleanup.js';
import { startDeadline, type Deadline } from '../common/deadline.js';
import { INGEST_ACCOUNTS, INGEST_ROUNDS, measureIngest, type Phase, type Settings } from './ingest-measure.js';
import { BenchUsageError, parseIntOptions } from '../common/options.js';
import { markdownTable, rate, seconds, writeResults } from '../common/report.js';

const ACCOUNTS = INGEST_ACCOUNTS;
const TARGET_RATIO = 0.9;
// Teardown after an abort gets this long before the process exits regardless.
const CLEANUP_GRACE_MS = 30_000;
const RESULTS_PATH = fileURLToPath(new URL('../results/ingest.json', import.meta.url));

function readSettings(config: Config): Settings & { compareLabelRule: boolean } {
  const options = parseIntOptions({
    events: { flag: 'events', env: 'BENCH_EVENTS', min: 1 },
    concurrency: { flag: 'concurrency', env: 'BENCH_CONCURRENCY', min: 1 },
    batchSize: { flag: 'batch-size', env: 'BENCH_BATCH_SIZE', min: 1 },
    batchDelayMs: { flag: 'batch-delay-ms', env: 'BENCH_BATCH_DELAY_MS', min: 0 },
    batchesInFlight: { flag: 'batches-in-flight', env: 'BENCH_BATCHES_IN_FLIGHT', min: 1 },
    poolSize: { flag: 'pool-size', env: 'BENCH_POOL_SIZE', min: 1 },
    timeoutS: { flag: 'timeout-s', env: 'BENCH_TIMEOUT_S', min: 1 },
    rounds: { flag: 'rounds', env: 'BENCH_ROUNDS', min: 1 },
    webhooks: { flag: 'webhooks', env: 'BENCH_WEBHOOKS', min: 0 },
    deliverAfter: { flag: 'deliver-after', env: 'BENCH_DELIVER_AFTER', min: 0 },
    softBounceThreshold: { flag: 'soft-bounce-threshold', env: 'BENCH_SOFT_BOUNCE_THRESHOLD', min: 2 },
    labelRule: { flag: 'label-rule', env: 'BENCH_LABEL_RULE', min: 0 },
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
    rounds: options.rounds ?? INGEST_ROUNDS,
    webhooks: options.webhooks ?? 0,
    deliverBeside: (options.deliverAfter ?? 0) === 0,
    softBounceThreshold: options.softBounceThreshold ?? null,
    classifier: 'classifier',
    compareLabelRule: (options.labelRule ?? 0) > 0,
  };
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

/** One measurement, printed: its table, ratio and verification. Returns it, with whether it verified. */
async function measureAndPrint(
  config: Config,
  settings: Settings,
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<{ ok: boolean; jobsPerSecond: number; ratio: number; results: Record<string, unknown> }> {
  const delay = settings.batchDelayMs === undefined ? 'worker default' : `${settings.batchDelayMs} ms`;
  const batch =
    `batch size ${settings.batchSize ?? 'worker default'}, batch delay ${delay}, ` +
    `batches in flight ${settings.batchesInFlight ?? 'worker default'}`;
  const { expected, baseline, floor, service, ratio, floorRatio, problems, warnings, webhooks } = await measureIngest(
    config,
    settings,
    logger,
    deadline,
    cleanup,
    (info) =>
      console.log(
        `bench:ingest: ${settings.events} events over ${ACCOUNTS} accounts (${info.expected.suppressing} suppressing, ` +
          `${info.expected.suppressions} distinct pairs) in ${settings.rounds} alternating rounds of each; ` +
          `bounces decided by the ${settings.classifier === 'label' ? 'label rule' : 'classifier'}; ` +
          `concurrency ${settings.concurrency}, ${batch}, pool ${settings.poolSize}; ` +
          (settings.softBounceThreshold === null
            ? ''
            : `soft-bounce threshold ${settings.softBounceThreshold} in 7 days on every account; `) +
          (settings.webhooks > 0
            ? `webhooks on ${Math.min(settings.webhooks, ACCOUNTS)} accounts, delivering ${settings.deliverBeside ? 'beside the ingest' : 'between rounds'}; `
            : '') +
          `database ${info.databaseName}; ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
      ),
  );
  console.log('');
  console.log(
    markdownTable(TABLE_HEADER, [
      tableRow('BullMQ no-op worker', baseline),
      ...(floor ? [tableRow('the same rows by COPY (floor)', floor)] : []),
      tableRow('event worker + PostgreSQL', service),
    ]),
  );
  console.log('');
  console.log(
    `ratio service/baseline: ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`,
  );
  if (floorRatio !== undefined) {
    console.log(
      `ratio service/COPY floor: ${floorRatio.toFixed(3)} (the database's own work for the same rows, same queue)`,
    );
  }
  if (webhooks) {
    console.log(
      `webhooks: ${webhooks.delivered} of ${webhooks.expected} changes delivered to ${webhooks.webhooks} webhooks ` +
        `(${webhooks.requests} requests); ${seconds(webhooks.drainMs)} s of delivery after the rounds' ingest`,
    );
  }
  console.log(problems.length === 0 ? 'verification: ok' : `verification FAILED:\n  ${problems.join('\n  ')}`);
  for (const warning of warnings) console.log(`warning: ${warning}`);

  const results = {
    benchmark: 'ingest',
    finishedAt: new Date().toISOString(),
    // Other work on the machine skews both figures; the load average at the end tells a reader how quiet it was.
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      node: process.version,
      loadAverage1m: os.loadavg()[0] ?? null,
    },
    settings: {
      ...settings,
      accounts: ACCOUNTS,
      batchSize: settings.batchSize ?? null,
      batchDelayMs: settings.batchDelayMs ?? null,
      batchesInFlight: settings.batchesInFlight ?? null,
    },
    expected,
    baseline: { enqueueMs: baseline.enqueueMs, ...baseline.run },
    floor: floor ? { enqueueMs: floor.enqueueMs, ...floor.run } : null,
    service: { enqueueMs: service.enqueueMs, ...service.run },
    ratio,
    floorRatio: floorRatio ?? null,
    targetRatio: TARGET_RATIO,
    webhooks: webhooks ?? null,
    verified: problems.length === 0,
    problems,
    warnings,
  };
  return { ok: problems.length === 0, jobsPerSecond: service.run.jobsPerSecond, ratio, results };
}

async function run(
  config: Config,
  settings: Settings & { compareLabelRule: boolean },
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<boolean> {
  if (!settings.compareLabelRule) {
    const { ok, results } = await measureAndPrint(config, settings, logger, deadline, cleanup);
    await writeResults(RESULTS_PATH, results);
    console.log(`figures written to ${RESULTS_PATH}`);
    return ok;
  }
  // Label rule, classifier, classifier, label rule: each sees the same drift in the machine's load.
  const order: Settings['classifier'][] = ['label', 'classifier', 'classifier', 'label'];
  const runs: {
    classifier: Settings['classifier'];
    jobsPerSecond: number;
    ratio: number;
    ok: boolean;
    results: Record<string, unknown>;
  }[] = [];
  for (const classifier of order) {
    runs.push({
      classifier,
      ...(await measureAndPrint(config, { ...settings, classifier }, logger, deadline, cleanup)),
    });
    console.log('');
  }
  const mean = (classifier: Settings['classifier'], figure: 'jobsPerSecond' | 'ratio'): number => {
    const mine = runs.filter((run) => run.classifier === classifier);
    return mine.reduce((sum, run) => sum + run[figure], 0) / mine.length;
  };
  console.log(
    `classifier against the label rule, same run (means of two each): ${rate(mean('classifier', 'jobsPerSecond'))} against ` +
      `${rate(mean('label', 'jobsPerSecond'))} events/s (${(mean('classifier', 'jobsPerSecond') / mean('label', 'jobsPerSecond')).toFixed(3)}); ` +
      `ratios to the no-op worker ${mean('classifier', 'ratio').toFixed(3)} against ${mean('label', 'ratio').toFixed(3)} ` +
      `(${(mean('classifier', 'ratio') / mean('label', 'ratio')).toFixed(3)})`,
  );
  await writeResults(RESULTS_PATH, { runs: runs.map(({ classifier, results }) => ({ classifier, ...results })) });
  console.log(`figures written to ${RESULTS_PATH}`);
  return runs.every((run) => run.ok);
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
