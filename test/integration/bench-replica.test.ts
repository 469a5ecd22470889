import { describe, expect, inject, it } from 'vitest';
import { replicaRows, runReplicaBench } from '../../bench/api/replica-measure.js';
import { QUICK_SIZES } from '../../bench/api/suite.js';
import { startDeadline } from '../../bench/common/deadline.js';
import { markdownTable } from '../../bench/common/report.js';
import { createLogger } from '../../src/logger.js';

// `npm run bench:check -- --replica` on tiny sizes: the replica run must keep working, whatever the speed.
const TINY = {
  ...QUICK_SIZES.api,
  lookupRows: 2000,
  accounts: 20,
  keyedAccounts: 5,
  connections: 5,
  warmupS: 0,
  loadS: 1,
  lookupRounds: 1,
  checkConnections: 2,
  checkS: 1,
};

describe('the replica bench', () => {
  it(
    'when run, then the service reads from the replica, and stopping or pausing it fails no request and serves nothing stale past the bound',
    { timeout: 120_000 },
    async () => {
      const deadline = startDeadline(115_000, 'replica bench test');
      try {
        const figures = await runReplicaBench(
          { ...process.env, REDIS_URL: inject('redisUrl') },
          TINY,
          createLogger('silent'),
          deadline,
          () => undefined,
        );
        expect(figures.lookup_served.replica).toBeGreaterThan(0);
        expect(figures.check_served.replica).toBeGreaterThan(0);
        expect(figures.stop).toMatchObject({ failed: 0, replica_reads_after: 0 });
        expect(figures.stop.requests).toBeGreaterThan(0);
        expect(figures.stop.shown_down_ms).toBeLessThan(1000);
        expect(figures.pause).toMatchObject({ failed: 0, stale_past_bound: 0 });
        expect(figures.pause.primary_after_ms).toBeLessThan(figures.max_lag_ms + 1000);
        expect(markdownTable(['figure', 'value'], replicaRows(figures))).toContain('| lookup');
      } finally {
        deadline.clear();
      }
    },
  );
});
