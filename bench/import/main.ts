/**
 * bench:import: a list of N addresses (default 1,000,000) imported end to end through the real
 * command line, as an operator would: `import <file.csv> --account <name> --wait` reads and checks
 * the file, queues jobs of 10,000, and the batch worker (running in this process) writes them.
 * Reports addresses per second from the command's start to its exit, the rate of bare COPYs of the
 * rows the import stores (each entry and its addition record) into the same tables right after (the
 * database's own limit) and the ratio of the two, the same against a COPY of the entries alone, and
 * the peak memory of the command and of the worker process.
 *
 *   npm run bench:import -- [--addresses N] [--worker-concurrency N] [--timeout-s N]
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { CleanupStack } from '../common/cleanup.js';
import { startDeadline } from '../common/deadline.js';
import { measureImport } from './import-measure.js';
import { parseIntOptions } from '../common/options.js';
import { markdownTable, rate, seconds, writeResults } from '../common/report.js';

const TARGET_RATIO = 0.9;
const RESULTS_PATH = fileURLToPath(new URL('../results/import.json', import.meta.url));

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
    const { run, addressesPerSecond, copy, ratio, ratioEntriesOnly } = await measureImport(
      config,
      { addresses, workerConcurrency: options.workerConcurrency },
      logger,
      deadline,
      cleanup,
      (databaseName) =>
        console.log(
          `bench:import: ${addresses} addresses (CSV with a header) into one account; batch worker concurrency ` +
            `${options.workerConcurrency ?? 'default'}; database ${databaseName}; ${os.cpus().length} CPUs, ` +
            `load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
        ),
    );
    const workerPeakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log('');
    console.log(
      markdownTable(
        [
          'addresses',
          'seconds',
          'addresses/s',
          'bare COPY entries/s',
          'ratio',
          'COPY of entries alone/s',
          'ratio to it',
          'CLI peak RSS MB',
          'worker process peak RSS MB',
        ],
        [
          [
            addresses,
            seconds(run.elapsedMs),
            rate(addressesPerSecond),
            rate(copy.withRecords.rowsPerSecond),
            ratio.toFixed(3),
            rate(copy.entriesOnly.rowsPerSecond),
            ratioEntriesOnly.toFixed(3),
            Math.round(run.peakRssMb),
            Math.round(workerPeakRssMb),
          ],
        ],
      ),
    );
    console.log('');
    console.log(
      `target: import >= ${TARGET_RATIO} x bare COPY: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}; verification: ok`,
    );
    console.log(`\nThe command's own report:\n${run.output.trim()}`);
    await writeResults(RESULTS_PATH, {
      benchmark: 'import',
      finishedAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage1m: os.loadavg()[0] ?? null },
      addresses,
      seconds: run.elapsedMs / 1000,
      addresses_per_s: addressesPerSecond,
      copy_rows_per_s: copy.withRecords.rowsPerSecond,
      ratio,
      copy_entries_only_rows_per_s: copy.entriesOnly.rowsPerSecond,
      ratio_entries_only: ratioEntriesOnly,
      cli_peak_rss_mb: run.peakRssMb,
      worker_peak_rss_mb: workerPeakRssMb,
      target_ratio: TARGET_RATIO,
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
