/**
 * npm run bench [-- --quick] [--minutes N]: the service against its baselines in one run (lookup,
 * list, batch add, ingest, import, the API's peak memory), each block on its own fresh database and
 * queue prefix.
 * The API's blocks are in this folder; the ingest and import blocks are those of bench/ingest/ and
 * bench/import/, so that the one run and the suites alone measure the same way.
 * Each block has its share of the run's time; one that runs past it is reported as unfinished and
 * the run goes on. Prints a markdown table and writes bench/results/latest.json after every block,
 * so a run cut short keeps what it measured. PostgreSQL and Redis are DATABASE_URL and REDIS_URL,
 * as the service reads them.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startDeadline } from '../common/deadline.js';
import { markdownTable, writeResults } from '../common/report.js';
import { FULL_SIZES, QUICK_SIZES, runSuite, type SuiteResults } from './suite.js';
import { SUMMARY_HEADER, summaryRows } from './summary.js';

const RESULTS_PATH = fileURLToPath(new URL('../results/latest.json', import.meta.url));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, minutes: { type: 'string' } },
    strict: true,
  });
  const quick = values.quick === true;
  const sizes = quick ? QUICK_SIZES : FULL_SIZES;
  // A slower machine than the one the shares were set on may give the run more time.
  const minutes = values.minutes === undefined ? (quick ? 3 : 7) : Number(values.minutes);
  if (!(minutes > 0)) throw new Error(`--minutes must be a number above 0, not ${values.minutes}`);
  const config = loadConfig();
  const logger = createLogger('warn');
  const deadline = startDeadline(minutes * 60_000, `bench${quick ? ' --quick' : ''}`);
  let soFar: SuiteResults | undefined;
  const printSummary = (results: SuiteResults) => {
    console.log(markdownTable(SUMMARY_HEADER, summaryRows(results)));
    console.log(`\nfigures written to ${RESULTS_PATH}`);
  };
  deadline.signal.addEventListener('abort', () => {
    setTimeout(() => {
      process.stderr.write('bench: teardown did not finish in time; exiting without it\n');
      // What was measured is already written; the table still says so.
      if (soFar) printSummary(soFar);
      process.exit(1);
    }, 30_000).unref();
  });
  const startedAt = Date.now();
  console.log(
    `bench${quick ? ' --quick' : ''}: ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
  );
  try {
    const results = await runSuite(
      config,
      sizes,
      logger,
      deadline,
      (message) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${message}`),
      (results) => {
        soFar = results;
        return writeResults(RESULTS_PATH, results);
      },
    );
    console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] done\n`);
    printSummary(results);
    for (const { block, reason } of results.unfinished) {
      process.stderr.write(`bench: the ${block} block did not finish: ${reason}\n`);
    }
    return results.unfinished.length === 0 ? 0 : 1;
  } catch (error) {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    deadline.clear();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
