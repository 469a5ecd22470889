import { describe, expect, inject, it } from 'vitest';
import { replicaRows, runReplicaBench, type ReplicaWindows } from '../../bench/api/replica-measure.js';
import { QUICK_API_SIZES } from '../../bench/api/api-sizes.js';
import { startDeadline } from '../../bench/common/deadline.js';
import { markdownTable } from '../../bench/common/report.js';
import { createLogger } from '../../src/logger.js';

// `npm run bench:check -- --replica` on tiny sizes: the replica run must keep working, whatever the
// speed. Each round of load and each observation is a number of requests rather than seconds.
const TINY = {
  ...QUICK_API_SIZES,
  lookupRows: 2000,
  accounts: 20,
  keyedAccounts: 5,
  connections: 5,
  warmupS: 0,
  loadS: 1,
  lookupRounds: 1,
  checkConnections: 2,
  checkS: 1,
  requestsPerRound: 20,
};

const WINDOWS: ReplicaWindows = {
  beforeStop: { ms: 0, requests: 100 },
  afterDown: { ms: 0, requests: 100 },
  beforePause: { ms: 0, requests: 50 },
  pastBound: { ms: 0, requests: 20 },
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
          WINDOWS,
        );
        expect(figures.lookup_served.replica).toBeGreaterThan(0);
        expect(figures.check_served.replica).toBeGreaterThan(0);
        expect(figures.stop).toMatchObject({ failed: 0, replica_reads_after: 0 });
        expect(figures.stop.requests).toBeGreaterThanOrEqual(WINDOWS.beforeStop.requests + WINDOWS.afterDown.requests);
        expect(figures.pause).toMatchObject({ failed: 0, stale_past_bound: 0 });
        // Lookups ran past the bound, and none was stale: the primary answered them.
        expect(figures.pause.requests).toBeGreaterThanOrEqual(
          WINDOWS.beforePause.requests + WINDOWS.pastBound.requests,
        );
        expect(figures.pause.primary_after_ms).toBeGreaterThanOrEqual(0);
        expect(markdownTable(['figure', 'value'], replicaRows(figures))).toContain('| lookup');
      } finally {
        deadline.clear();
      }
    },
  );
});
