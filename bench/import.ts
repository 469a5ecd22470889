/**
 * bench:import: a list of N addresses (default 1,000,000) imported end to end through the real
 * command line, as an operator would: `import <file.csv> --account <name> --wait` reads and checks
 * the file, queues jobs of 10,000, and the batch worker (running in this process) writes them.
 * Reports addresses per second from the command's start to its exit, and the peak memory of the
 * command and of the worker process.
 *
 *   npm run bench:import -- [--addresses N] [--worker-concurrency N] [--timeout-s N]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { ensureAccount } from '../src/db/account-repository.js';
import { createDatabase } from '../src/db/database.js';
import { createLogger } from '../src/logger.js';
import { createRedis } from '../src/redis.js';
import { startBatchWorker } from '../workers/batch-worker.js';
import { countRows, createBenchDatabase } from './support/bench-database.js';
import { CleanupStack } from './support/cleanup.js';
import { beforeDeadline, startDeadline } from './support/deadline.js';
import { parseIntOptions } from './support/options.js';
import { followPeakRss } from './support/peak-rss.js';
import { deletePrefix, freshPrefix } from './support/redis-prefix.js';
import { markdownTable, rate, seconds, writeResults } from './support/report.js';

const TARGET_RATE = 50_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_PATH = fileURLToPath(new URL('./results/import.json', import.meta.url));

/** A provider-style export: a header, the address, then columns the import ignores. */
async function writeCsv(path: string, addresses: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('email,reason,created\n');
  for (let index = 0; index < addresses; index += 1) {
    if (!out.write(`user${index}@example${index % 97}.com,hard_bounce,2026-10-06T23:47:56Z\n`)) {
      await once(out, 'drain');
    }
  }
  out.end();
  await finished(out);
}

interface CommandRun {
  exitCode: number | null;
  elapsedMs: number;
  peakRssMb: number;
  output: string;
}

/** Runs the real CLI (TypeScript through tsx, as `npm run cli` does) and follows its memory. */
function runCli(args: string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<CommandRun> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
  });
  const rss = followPeakRss(child.pid as number);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      const elapsedMs = performance.now() - startedAt;
      void rss.stop().then((peakRssMb) => resolve({ exitCode, elapsedMs, peakRssMb, output }));
    });
  });
}

async function main(): Promise<void> {
  const options = parseIntOptions({
    addresses: { flag: 'addresses', env: 'BENCH_ADDRESSES', min: 1 },
    workerConcurrency: { flag: 'worker-concurrency', env: 'BENCH_WORKER_CONCURRENCY', min: 1 },
    timeoutS: { flag: 'timeout-s', env: 'BENCH_TIMEOUT_S', min: 1 },
  });
  const addresses = options.addresses ?? 1_000_000;
  const config = loadConfig();
  const logger = createLogger('warn');
  const deadline = startDeadline((options.timeoutS ?? 300) * 1000, 'bench:import');
  const cleanup = new CleanupStack();
  try {
    const bench = await beforeDeadline(deadline, createBenchDatabase(config.DATABASE_URL, logger));
    cleanup.push(`drop database ${bench.name}`, () => bench.drop());
    const db = createDatabase({ url: bench.url, logger, applicationName: 'bench-import' });
    cleanup.push('close database pool', () => db.close());
    const account = await ensureAccount(db, 'bench-import');

    const file = join(os.tmpdir(), `bench-import-${randomBytes(4).toString('hex')}.csv`);
    cleanup.push(`remove ${file}`, () => rm(file, { force: true }));
    await beforeDeadline(deadline, writeCsv(file, addresses));

    const prefix = freshPrefix('import');
    const connection = createRedis(config.REDIS_URL, 'worker');
    cleanup.push('close Redis', async () => {
      await deletePrefix(connection, prefix);
      await connection.quit();
    });
    const worker = startBatchWorker({ db, logger, connection, prefix, concurrency: options.workerConcurrency });
    cleanup.push('close batch worker', () => worker.close());
    await worker.worker.waitUntilReady();

    console.log(
      `bench:import: ${addresses} addresses (CSV with a header) into one account; batch worker concurrency ` +
        `${options.workerConcurrency ?? 'default'}; database ${bench.name}; ${os.cpus().length} CPUs, ` +
        `load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
    );
    const run = await runCli(
      ['import', file, '--account', account.name, '--wait'],
      { ...process.env, DATABASE_URL: bench.url, REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' },
      deadline.signal,
    );
    if (run.exitCode !== 0) throw new Error(`import exited with ${run.exitCode}:\n${run.output}`);
    const stored = await countRows(db, 'suppressions');
    if (stored !== addresses) throw new Error(`expected ${addresses} suppressions after the import, found ${stored}`);

    const addressesPerSecond = addresses / (run.elapsedMs / 1000);
    const workerPeakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log('');
    console.log(
      markdownTable(
        ['addresses', 'seconds', 'addresses/s', 'CLI peak RSS MB', 'worker process peak RSS MB'],
        [[addresses, seconds(run.elapsedMs), rate(addressesPerSecond), Math.round(run.peakRssMb), Math.round(workerPeakRssMb)]],
      ),
    );
    console.log('');
    console.log(`target >= ${TARGET_RATE} addresses/s: ${addressesPerSecond >= TARGET_RATE ? 'met' : 'NOT met'}; verification: ok`);
    console.log(`\nThe command's own report:\n${run.output.trim()}`);
    await writeResults(RESULTS_PATH, {
      benchmark: 'import',
      finishedAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage1m: os.loadavg()[0] ?? null },
      addresses,
      seconds: run.elapsedMs / 1000,
      addresses_per_s: addressesPerSecond,
      cli_peak_rss_mb: run.peakRssMb,
      worker_peak_rss_mb: workerPeakRssMb,
      target_addresses_per_s: TARGET_RATE,
    });
  } finally {
    deadline.clear();
    for (const failure of await cleanup.runAll()) console.error(`cleanup: ${failure}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
