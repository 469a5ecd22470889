import { describe, expect, inject, it } from 'vitest';
import { prepareApiBench } from '../../bench/api/api-blocks.js';
import { QUICK_API_SIZES, type ApiSizes } from '../../bench/api/api-sizes.js';
import { filterReady, filterRows, measureFilter } from '../../bench/api/check-filter-measure.js';
import { copyingTemplate } from '../../bench/common/bench-database.js';
import { inPhase } from '../../bench/common/cleanup.js';
import { startDeadline } from '../../bench/common/deadline.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';

// bench:check's filter block on tiny sizes: it must keep running, whatever the speed. Each round of
// load is a few requests rather than seconds.
const TINY: ApiSizes = {
  ...QUICK_API_SIZES,
  lookupRows: 2000,
  accounts: 20,
  keyedAccounts: 5,
  listRows: 100,
  connections: 4,
  warmupS: 0,
  loadS: 1,
  lookupRounds: 1,
  checkConnections: 2,
  checkS: 1,
  requestsPerRound: 10,
};

describe('bench:check with the check filter', () => {
  // The deadline is there so that a block that hangs fails with its name, not to time it.
  it(
    'when run, then the check with the filter, on two processes, without its cache, with CHECK_FILTER=off and bare SQL, and the lookups, all report positive figures',
    { timeout: 150_000 },
    async () => {
      const logger = createLogger('silent');
      const config = loadConfig({ ...process.env, DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl') });
      const deadline = startDeadline(140_000, 'bench:check filter test');
      try {
        const figures = await copyingTemplate(config.DATABASE_URL, inject('templateDatabase'), () =>
          inPhase('check filter', logger, async (cleanup) => {
            const bench = await prepareApiBench(config, TINY, logger, deadline, cleanup, {
              unfiltered: { CHECK_FILTER: 'off' },
              uncached: { CHECK_CACHE_ENTRIES: '0' },
              second: {},
            });
            const readyAfterS = await filterReady(bench.service, deadline);
            const { unfiltered, uncached, second } = bench.twins;
            const twins = { unfiltered: unfiltered!, uncached: uncached!, second: second! };
            for (const twin of [twins.uncached, twins.second]) await filterReady(twin, deadline);
            return measureFilter(bench, twins, readyAfterS, deadline);
          }),
        );
        expect(figures.checks.map((check) => check.suppressed_share)).toEqual([0.1, 0.02]);
        for (const check of figures.checks) {
          for (const side of [check.filtered, check.pair, check.uncached, check.unfiltered, check.bare])
            expect(side.addresses_per_s).toBeGreaterThan(0);
          // In a list this small every set of an account holds the same entries: the sixth set on
          // finds those of the first five in the cache (and the 2 % sets, those of the 10 % ones).
          expect(check.cached_share).toBeGreaterThan(0);
        }
        // The first five sets met an empty cache.
        expect(figures.checks[0]?.cached_share).toBeLessThan(1);
        expect(figures.lookups.map((lookup) => lookup.address)).toEqual(['present', 'absent']);
        for (const lookup of figures.lookups) expect(lookup.filtered.rps * lookup.unfiltered.rps).toBeGreaterThan(0);
        // 2,100 entries, each one key, in the smallest filter: about 8 KB.
        expect(figures.entries).toBe(2100);
        expect(figures.bytes).toBeGreaterThan(8000);
        expect(figures.bytes).toBeLessThan(8500);
        expect(filterRows(figures)).toHaveLength(5);
      } finally {
        deadline.clear();
      }
    },
  );
});
