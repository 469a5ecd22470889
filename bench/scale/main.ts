/**
 * npm run bench:scale: how the service's reads and writes hold up as a list grows. For each layout
 * (`one`: a single account holds every entry; `many`: 1,000 accounts share them) a fresh database
 * is loaded cumulatively to each size in turn (by default 1, 10 and 50 million entries), each entry
 * with the audit record of the event that made it (in its month's partition, over two years) and
 * that event's receipt. At each size, after VACUUM (ANALYZE) and with the cache warmed as a running
 * server's would be (warm-cache.ts):
 *
 * - a lookup of one address and a check of 1,000 (half of them on the list), the service's
 *   functions against the bare indexed query, for a fixed time on several connections, in turns
 *   (service, bare, bare, service, twice), every call on addresses drawn afresh;
 * - the first page of an account's list and a page 90 % of the way down it; a search by domain and
 *   by address prefix, service and bare SQL;
 * - an export (CSV, streamed through a cursor) against a bare `COPY ... TO STDOUT`;
 * - the check filter (measure-filter.ts): its build and memory, and the check and lookups with it,
 *   without it and as bare SQL, with 10 % and 2 % of the checked addresses listed;
 * - the ingest path (recordEventBatch, batches of 500, one at a time) with a soft-bounce threshold
 *   on every account, against the same loop writing nothing, with the filter's rounds beside it;
 * - the tables' and indexes' sizes, and EXPLAIN (ANALYZE, BUFFERS) of the statements measured.
 *
 * The database is dropped after its layout, also on failure and on Ctrl-C (unless --keep-db 1).
 * Before each load the free disk is checked against the size the step will reach, estimated from
 * the bytes per entry measured at the step before; the benchmark uses at most --budget-gb (60 GB).
 *
 *   npm run bench:scale -- [--sizes 1000000,10000000,50000000] [--layouts one,many] [--keep-db 0]
 *     [--seconds 10] [--connections 8] [--events 50000] [--export-cap 2000000] [--budget-gb 60]
 */
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { CleanupStack } from '../common/cleanup.js';
import { BenchUsageError } from '../common/options.js';
import { markdownTable, writeResults } from '../common/report.js';
import { createMonthPartitions, loadEntries } from './load.js';
import { measureStep } from './measure.js';
import { SOFT_BOUNCE_RULE } from './step.js';
import { planNotes, ratios, tableRows, type StepResult } from './report.js';

const RESULTS = new URL('../results/scale.json', import.meta.url).pathname;
const LAYOUTS = { one: 1, many: 1000 } as const;
type Layout = keyof typeof LAYOUTS;

const GB = 1024 ** 3;
/** Room left on the disk for WAL and everything else. */
const DISK_MARGIN_BYTES = 5 * GB;
/** Bytes per entry before any has been measured: above what the first runs measured, to be safe. */
const FIRST_ESTIMATE_BYTES_PER_ENTRY = 1500;
/** The soft-bounce rule set on every account: the ingest counts toward it. */
const SOFT_BOUNCE = {
  soft_bounce_threshold: SOFT_BOUNCE_RULE.threshold,
  soft_bounce_window_days: SOFT_BOUNCE_RULE.windowDays,
};

interface Options {
  sizes: number[];
  layouts: Layout[];
  keepDb: boolean;
  seconds: number;
  connections: number;
  events: number;
  exportCap: number;
  /** The most the benchmark's database may take, in GB. */
  budgetGb: number;
}

function wholeNumber(flag: string, raw: string, min: number): number {
  if (!/^[0-9]+$/.test(raw.trim())) throw new BenchUsageError(`--${flag} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min) throw new BenchUsageError(`--${flag} must be at least ${min}, got ${value}`);
  return value;
}

function parseOptions(argv: readonly string[]): Options {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        ['sizes', 'layouts', 'keep-db', 'seconds', 'connections', 'events', 'export-cap', 'budget-gb'].map((flag) => [
          flag,
          { type: 'string' as const },
        ]),
      ),
      strict: true,
      allowPositionals: false,
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new BenchUsageError(error instanceof Error ? error.message : String(error));
  }
  const sizes = (values.sizes ?? '1000000,10000000,50000000')
    .split(',')
    .map((size) => wholeNumber('sizes', size, 1000));
  if (sizes.some((size, index) => index > 0 && size <= (sizes[index - 1] as number)))
    throw new BenchUsageError('--sizes must grow: each step adds entries to the one before');
  const layouts = (values.layouts ?? 'one,many').split(',').map((layout) => layout.trim());
  for (const layout of layouts)
    if (!(layout in LAYOUTS)) throw new BenchUsageError(`--layouts takes one and many, got "${layout}"`);
  const keepDb = wholeNumber('keep-db', values['keep-db'] ?? '0', 0);
  if (keepDb > 1) throw new BenchUsageError('--keep-db is 0 or 1');
  return {
    sizes,
    layouts: layouts as Layout[],
    keepDb: keepDb === 1,
    seconds: wholeNumber('seconds', values.seconds ?? '10', 1),
    connections: wholeNumber('connections', values.connections ?? '8', 1),
    events: wholeNumber('events', values.events ?? '50000', 500),
    exportCap: wholeNumber('export-cap', values['export-cap'] ?? '2000000', 1000),
    budgetGb: wholeNumber('budget-gb', values['budget-gb'] ?? '60', 1),
  };
}

/**
 * Refuses a step whose database would pass the budget or the free disk, estimated from the bytes
 * per entry measured so far.
 */
async function checkDisk(
  admin: pg.Client,
  size: number,
  bytesPerEntry: number,
  usedBytes: number,
  budgetBytes: number,
): Promise<void> {
  const projected = size * bytesPerEntry;
  const { rows } = await admin.query<{ data_directory: string }>('SHOW data_directory');
  const stats = await statfs(rows[0]?.data_directory ?? '/');
  const free = stats.bavail * stats.bsize;
  const gb = (bytes: number) => `${(bytes / GB).toFixed(1)} GB`;
  if (projected > budgetBytes)
    throw new Error(
      `${size.toLocaleString('en-US')} entries would take about ${gb(projected)} (${Math.round(bytesPerEntry)} bytes an entry), over the benchmark's ${gb(budgetBytes)} (--budget-gb)`,
    );
  if (projected - usedBytes > free - DISK_MARGIN_BYTES)
    throw new Error(
      `${size.toLocaleString('en-US')} entries need about ${gb(projected - usedBytes)} more and the disk has ${gb(free)} free (${gb(DISK_MARGIN_BYTES)} kept)`,
    );
}

async function databaseBytes(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  return Number(rows[0]?.bytes ?? 0);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * The running layout's teardown, once: Ctrl-C and the layout's own failure (its COPY broken by the
 * teardown) both wait for the same run, so the process never exits halfway through the drop.
 */
let tearDown: (() => Promise<string[]>) | null = null;

async function runLayout(
  layout: Layout,
  options: Options,
  log: (message: string) => void,
  done: (steps: StepResult[]) => Promise<void>,
): Promise<StepResult[]> {
  const config = loadConfig();
  const logger = createLogger('warn');
  const cleanup = new CleanupStack();
  let teardown: Promise<string[]> | null = null;
  const once = () => (teardown ??= cleanup.runAll());
  tearDown = once;
  const steps: StepResult[] = [];
  try {
    const bench = await createBenchDatabase(config.DATABASE_URL, logger);
    if (options.keepDb) log(`database ${bench.name} is kept: ${bench.url}`);
    else cleanup.push(`drop ${bench.name}`, () => bench.drop());
    const loaders = [0, 1, 2].map(
      () => new pg.Client({ connectionString: bench.url, application_name: 'bench-scale-load' }),
    );
    for (const client of loaders) {
      await client.connect();
      cleanup.push('close a loading connection', () => client.end());
    }
    const [admin] = loaders as [pg.Client, pg.Client, pg.Client];
    const db = createDatabase({
      url: bench.url,
      poolSize: options.connections,
      logger,
      statementTimeoutMs: 300_000,
      applicationName: 'bench-scale',
    });
    cleanup.push('close the service pool', () => db.close());
    const bare = new pg.Pool({
      connectionString: bench.url,
      max: options.connections,
      application_name: 'bench-scale-bare',
    });
    cleanup.push('close the bare pool', () => bare.end());

    const accountIds = await createAccounts(db, LAYOUTS[layout], `scale-${layout}`);
    for (const accountId of accountIds) await updateSettings(db, accountId, SOFT_BOUNCE);
    const end = Date.now();
    await createMonthPartitions(admin, end);

    let loaded = 0;
    let bytesPerEntry = FIRST_ESTIMATE_BYTES_PER_ENTRY;
    let used = await databaseBytes(admin);
    for (const size of options.sizes) {
      await checkDisk(admin, size, bytesPerEntry, used, options.budgetGb * GB);
      log(`loading ${(size - loaded).toLocaleString('en-US')} entries to reach ${size.toLocaleString('en-US')}`);
      const load = await loadEntries(loaders as [pg.Client, pg.Client, pg.Client], accountIds, loaded, size, end);
      loaded = size;
      log(`vacuum (analyze)`);
      const vacuumMs = {
        suppressions: await timed(() => admin.query('VACUUM (ANALYZE) suppressions')),
        suppression_events: await timed(() => admin.query('VACUUM (ANALYZE) suppression_events')),
      };
      const figures = await measureStep(
        {
          db,
          url: bench.url,
          bare,
          accountIds,
          size,
          end,
          seconds: options.seconds,
          connections: options.connections,
          events: options.events,
          exportCap: options.exportCap,
        },
        log,
      );
      used = await databaseBytes(admin);
      bytesPerEntry = used / size;
      steps.push({ size, load, vacuumMs, databaseBytes: used, figures });
      await done(steps);
    }
    return steps;
  } finally {
    const failures = await once();
    tearDown = null;
    for (const failure of failures) log(`cleanup failed: ${failure}`);
  }
}

function printLayout(layout: Layout, steps: readonly StepResult[]): void {
  console.log(
    `\n${layout === 'one' ? 'One account' : `${LAYOUTS[layout].toLocaleString('en-US')} accounts`}\n\n` +
      markdownTable(['figure', ...steps.map((step) => step.size.toLocaleString('en-US'))], tableRows(steps)),
  );
  const largest = ratios(steps);
  if (largest)
    console.log(
      `\n${largest.sizes}: lookup p99 ×${largest.lookupP99}, check p99 ×${largest.checkP99}, ` +
        `ingest rate ×${largest.ingestRate}; at the largest size, deep page / first page ${largest.deepOverFirstPage}; ` +
        `check with the filter (2 % listed): p99 ×${largest.filterCheckP99}, and ${largest.filterOverBareP99} of bare SQL's at the largest size`,
    );
  for (const note of planNotes(steps)) console.log(`plan: ${note}`);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = Date.now();
  const log = (message: string) =>
    process.stderr.write(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${message}\n`);
  process.once('SIGINT', () => {
    log('interrupted: dropping the database');
    void (tearDown?.() ?? Promise.resolve([])).finally(() => process.exit(130));
  });
  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage: os.loadavg(),
    date: new Date().toISOString(),
  };
  const results: { machine: typeof machine; options: Options; layouts: Record<string, unknown> } = {
    machine,
    options,
    layouts: {},
  };
  console.log(
    `bench:scale: ${machine.cpus} CPUs (${machine.model}), load ${machine.loadAverage[0]?.toFixed(2)}, Node ${machine.node}; ` +
      `${options.seconds} s per measurement on ${options.connections} connections`,
  );
  let failed = false;
  for (const layout of options.layouts) {
    let measured: StepResult[] = [];
    const record = async (steps: StepResult[]) => {
      measured = [...steps];
      results.layouts[layout] = {
        accounts: LAYOUTS[layout],
        steps,
        ratios: ratios(steps),
        planNotes: planNotes(steps),
      };
      await writeResults(RESULTS, results);
    };
    try {
      await runLayout(layout, options, (message) => log(`${layout}: ${message}`), record);
    } catch (error) {
      failed = true;
      log(`${layout} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The sizes measured before a failure (a step refused for disk, say) are printed all the same.
    if (measured.length > 0) printLayout(layout, measured);
  }
  console.log(`\nresults: ${RESULTS}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:scale: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
