import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logger.js';
import { newAccount } from '../support/accounts.js';
import { apiClient, type ApiClient } from '../support/api-client.js';
import { counted, startFilteredApp, type FilteredApp } from '../support/check-filter-app.js';
import { uniqueEmail } from '../support/emails.js';
import { startPrivatePrimary, type PrivatePrimary } from '../support/private-postgres.js';
import { sleep } from '../support/sleep.js';

/**
 * The filter against a PostgreSQL server that restarts: one of this file's own, since the shared
 * server cannot be stopped. After a restart the transaction ids a filter's snapshot names may mean
 * nothing (a crash loses the ones in flight; a failover's server has its own), so it must build
 * itself again from the table, and until it has, the checks ask the database.
 */
const DATABASE = 'sl_restart';
const logger = createLogger('silent');

let server: PrivatePrimary;
let db: Database;
const apps: FilteredApp[] = [];

beforeAll(async () => {
  server = await startPrivatePrimary();
  const admin = createDatabase({ url: server.url, poolSize: 1, logger });
  await admin.query({ text: `CREATE DATABASE ${DATABASE}` });
  await admin.close();
  await migrate(server.urlFor(DATABASE), logger);
  db = createDatabase({ url: server.urlFor(DATABASE), poolSize: 5, logger });
  const database = { url: server.urlFor(DATABASE), db };
  // Rounds retried quickly after the server comes back, so that the test sees the filter answer again soon.
  apps.push(await startFilteredApp(database, { retryMs: 50 }), await startFilteredApp(database, { retryMs: 50 }));
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await db?.close();
  await server?.remove();
});

/** Of the checks that followed an add's 201, those that answered 200, and the addresses they did not report. */
interface Tally {
  answered: number;
  missed: string[];
}

/**
 * Adds through one process and, once the add answered 201, checks through the other at once, until
 * `stop()`. A request that fails while the server is away (503) is not counted: only an answer can fail open.
 */
function addAndCheck(adder: ApiClient, checker: ApiClient) {
  const tally: Tally = { answered: 0, missed: [] };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const email = uniqueEmail();
      const add = await adder.post('/suppressions', { email });
      if (add.status !== 201) continue;
      const check = await checker.post('/suppressions/check', { emails: [uniqueEmail(), email] });
      if (check.status !== 200) continue;
      tally.answered += 1;
      const suppressed = (check.body as { suppressed: { email: string }[] }).suppressed.map((entry) => entry.email);
      if (!suppressed.includes(email)) tally.missed.push(email);
    }
  })();
  return {
    tally,
    /** Resolves once `count` more checks have answered. */
    async answeredMore(count: number): Promise<void> {
      const target = tally.answered + count;
      const deadline = Date.now() + 60_000;
      while (tally.answered < target) {
        if (Date.now() > deadline) throw new Error(`only ${tally.answered} of ${target} checks answered`);
        await sleep(20);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      await loop;
    },
  };
}

const restartBuilds = (app: FilteredApp) =>
  counted(app.metrics, 'suppression_filter_builds_total', { reason: 'server_restart' });

/** Resolves once every process's filter has been built again after `restarts` restarts. */
async function rebuiltAfter(restarts: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const builds = await Promise.all(apps.map(restartBuilds));
    if (builds.every((count) => count >= restarts)) return;
    if (Date.now() > deadline) throw new Error(`builds after ${restarts} restarts: ${builds.join(', ')}`);
    await sleep(20);
  }
}

describe('a PostgreSQL restart', () => {
  it('when the server crashes and when it is stopped cleanly, each time while one process adds and another checks, then every check that answers after an add reports it, and both filters build themselves again', async () => {
    const [first, second] = apps as [FilteredApp, FilteredApp];
    const owner = await newAccount(db);
    const traffic = addAndCheck(apiClient(first.server.url, owner.token), apiClient(second.server.url, owner.token));
    try {
      await traffic.answeredMore(50);
      await server.restart('immediate');
      await rebuiltAfter(1);
      await traffic.answeredMore(50);
      await server.restart('fast');
      await rebuiltAfter(2);
      await traffic.answeredMore(50);
    } finally {
      await traffic.stop();
    }

    expect(traffic.tally.missed).toEqual([]);
    expect(traffic.tally.answered).toBeGreaterThanOrEqual(150);
    for (const app of apps) {
      expect(await restartBuilds(app)).toBe(2);
      expect(app.filter.status().ready).toBe(true);
    }
    // After both restarts the filter answers again: an address on no list is answered without a query.
    expect(await second.filter.screen(owner.accountId, [''], [uniqueEmail()])).toEqual([false]);
  });
});
