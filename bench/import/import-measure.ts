/**
 * The measurement of bench:import, shared with `npm run bench`: N addresses imported end to end
 * through the real command line (`import <file.csv> --account <name> --wait`) while the batch worker
 * runs in this process, on a fresh database and queue prefix; then the same rows by a bare COPY
 * into the same table, the rate the import is measured against.
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
import type { Config } from '../../src/config.js';
import { ensureAccount } from '../../src/accounts/account-repository.js';
import { createDatabase } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { startBatchWorker } from '../../workers/batch-worker.js';
import { benchAddress } from './bench-addresses.js';
import { countRows, createBenchDatabase } from '../common/bench-database.js';
import { checkpoint, measureBareCopy, type CopyMeasurement } from './copy-baseline.js';
import type { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { followPeakRss } from '../common/peak-rss.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A provider-style export: a header, the address, then columns the import ignores. */
async function writeCsv(path: string, addresses: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('email,reason,created\n');
  for (let index = 0; index < addresses; index += 1) {
    if (!out.write(`${benchAddress(index)},hard_bounce,2026-10-06T23:47:56Z\n`)) {
      await once(out, 'drain');
    }
  }
  out.end();
  await finished(out);
}

export interface CommandRun {
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

export interface ImportSettings {
  addresses: number;
  /** Undefined: the batch worker's default. */
  workerConcurrency: number | undefined;
}

export interface ImportMeasurement {
  databaseName: string;
  addresses: number;
  run: CommandRun;
  addressesPerSecond: number;
  /** The same rows by bare COPYs into the same tables, right after: the database's own rate. */
  copy: CopyMeasurement;
  /** The import's rate over the COPY's of what it stores, the entries and their records. */
  ratio: number;
  /** The import's rate over the COPY's of the entries alone. */
  ratioEntriesOnly: number;
}

/** Writes the CSV, runs the import command against a fresh database, and checks every address arrived. */
export async function measureImport(
  config: Config,
  settings: ImportSettings,
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
  onReady: (databaseName: string) => void = () => undefined,
): Promise<ImportMeasurement> {
  const { addresses } = settings;
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
  const worker = startBatchWorker(
    { ...config, QUEUE_PREFIX: prefix },
    { db, logger, connection },
    { concurrency: settings.workerConcurrency },
  );
  cleanup.push('close batch worker', () => worker.close());
  await worker.worker.waitUntilReady();

  onReady(bench.name);
  await beforeDeadline(deadline, checkpoint(db.pool));
  const run = await runCli(
    ['import', file, '--account', account.name, '--wait'],
    { ...process.env, DATABASE_URL: bench.url, REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' },
    deadline.signal,
  );
  if (run.exitCode !== 0) throw new Error(`import exited with ${run.exitCode}:\n${run.output}`);
  const stored = await countRows(db, 'suppressions');
  if (stored !== addresses) throw new Error(`expected ${addresses} suppressions after the import, found ${stored}`);
  const recorded = await countRows(db, 'suppression_events');
  if (recorded !== addresses)
    throw new Error(`expected ${addresses} addition records after the import, found ${recorded}`);
  const copy = await beforeDeadline(deadline, measureBareCopy(db, account.id, addresses));
  const copied = await countRows(db, 'suppressions');
  if (copied !== addresses) throw new Error(`expected ${addresses} suppressions after the COPY, found ${copied}`);
  const addressesPerSecond = addresses / (run.elapsedMs / 1000);
  return {
    databaseName: bench.name,
    addresses,
    run,
    addressesPerSecond,
    copy,
    ratio: addressesPerSecond / copy.withRecords.rowsPerSecond,
    ratioEntriesOnly: addressesPerSecond / copy.entriesOnly.rowsPerSecond,
  };
}
