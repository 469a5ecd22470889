/**
 * npm run bench:check [-- --quick]: the send-time check alone, as `npm run bench` measures it: with
 * and without a scope, and against the same query on a bare pg pool, on a fresh database. Prints the
 * two rows of the summary table. Then the check filter: the check with it, with CHECK_FILTER=off (a
 * twin service on the same database) and bare SQL in the same rounds, at 10 % and 2 % suppressed,
 * and the lookup of a present and of an absent address with and without it.
 *
 * With `--replica`: the lookup and the check on a private primary and a streaming replica of it,
 * the service reading from the replica, with the reads each side served; then the replica stopped
 * and its replay paused under lookups (bench/api/replica-measure.ts).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startDeadline } from '../common/deadline.js';
import { markdownTable } from '../common/report.js';
import { inPhase } from '../common/cleanup.js';
import { prepareApiBench } from './api-blocks.js';
import { measureCheck } from './check-measure.js';
import { replicaRows, runReplicaBench } from './replica-measure.js';
import { FULL_API_SIZES, QUICK_API_SIZES } from './api-sizes.js';
import { checkRows, SUMMARY_HEADER } from './summary.js';
import { FILTER_HEADER, filterReady, filterRows, measureFilter } from './check-filter-measure.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, replica: { type: 'boolean', default: false } },
    strict: true,
  });
  const quick = values.quick === true;
  const sizes = quick ? QUICK_API_SIZES : FULL_API_SIZES;
  const logger = createLogger('warn');
  const name = `bench:check${quick ? ' --quick' : ''}${values.replica ? ' --replica' : ''}`;
  // The replica run also starts two clusters, seeds and replays, and stops and pauses the replica.
  const deadline = startDeadline((quick ? 240_000 : 600_000) * (values.replica ? 2 : 1), name);
  const startedAt = Date.now();
  console.log(`${name}: ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.version}`);
  try {
    if (values.replica) {
      const figures = await runReplicaBench(process.env, sizes, logger, deadline, (message) =>
        console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${message}`),
      );
      console.log(markdownTable(['figure', 'value'], replicaRows(figures)));
      return 0;
    }
    const { check, filter } = await inPhase('check', logger, async (cleanup) => {
      const bench = await prepareApiBench(loadConfig(), sizes, logger, deadline, cleanup, {
        unfiltered: { CHECK_FILTER: 'off' },
        uncached: { CHECK_CACHE_ENTRIES: '0' },
        second: {},
      });
      const { unfiltered, uncached, second } = bench.twins;
      if (!unfiltered || !uncached || !second) throw new Error('the twin services did not start');
      const readyAfterS = await filterReady(bench.service, deadline);
      for (const twin of [uncached, second]) await filterReady(twin, deadline);
      const figures = await measureCheck(bench, deadline);
      const filterFigures = await measureFilter(bench, { unfiltered, uncached, second }, readyAfterS, deadline);
      const [filteredRss, , uncachedRss, unfilteredRss] = await Promise.all(
        [bench.service, second, uncached, unfiltered].map((server) => server.stop()),
      );
      console.log(
        `peak RSS: service ${filteredRss} MB with its filter and entry cache, ${uncachedRss} MB with CHECK_CACHE_ENTRIES=0, ${unfilteredRss} MB with CHECK_FILTER=off`,
      );
      return { check: figures, filter: filterFigures };
    });
    console.log(markdownTable(SUMMARY_HEADER, checkRows(check)));
    console.log(`\n${markdownTable(FILTER_HEADER, filterRows(filter))}`);
    console.log(`\n${JSON.stringify(filter)}`);
    return 0;
  } catch (error) {
    process.stderr.write(`bench:check failed: ${error instanceof Error ? error.message : String(error)}\n`);
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
    process.stderr.write(`bench:check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
