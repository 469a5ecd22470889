import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pruneKeyChanges } from '../../src/check-filter/change-retention.js';
import type { CheckFilter } from '../../src/check-filter/check-filter.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { newId } from '../../src/domain/ids.js';
import { newAccount } from '../support/accounts.js';
import { counted, startTestFilter } from '../support/check-filter-app.js';
import { uniqueEmails } from '../support/emails.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
// These wait for the filter to reach a state, and time nothing: a build on a loaded machine takes
// longer than waitFor's default second.
const UNTIL_SETTLED = { timeout: 15_000, interval: 50 };

const filters: CheckFilter[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(filters.map((filter) => filter.close()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await database?.drop();
});

/** A filter of its own, without idle rounds unless asked: each round is one a test asked for. */
async function readyFilter(tuning: Parameters<typeof startTestFilter>[2] = {}, url?: string) {
  const metrics = createMetrics();
  const filter = startTestFilter(database, metrics, { idleRoundMs: 3_600_000, ...tuning }, url);
  filters.push(filter);
  await filter.whenReady();
  return { filter, metrics };
}

async function add(accountId: string, emails: readonly string[]): Promise<void> {
  await addSuppressions(
    database.db,
    accountId,
    emails.map((email) => ({ id: newId(), email, origin: 'manual' as const, sourceId: null })),
  );
}

const builds = (metrics: Metrics, reason: string) => counted(metrics, 'suppression_filter_builds_total', { reason });

describe('when the filter cannot show it is current', () => {
  it('when it has not been built yet, then the check asks the database, and says why', async () => {
    const owner = await newAccount(database.db);
    const [email] = uniqueEmails(1);
    await add(owner.accountId, [email!]);
    const metrics = createMetrics();
    const filter = startTestFilter(database, metrics, { idleRoundMs: 3_600_000 });
    filters.push(filter);
    const lookups = createSuppressionLookups(database.db, undefined, filter);

    const [found] = await lookups.suppressing(owner.accountId, [email!]);
    expect(found?.email).toBe(email);
    expect(await counted(metrics, 'suppression_filter_fallbacks_total', { reason: 'building' })).toBe(1);
    await filter.whenReady();
    expect(await builds(metrics, 'start')).toBe(1);
  });

  it('when its connection to the primary is cut, then checks ask the database until a round succeeds again, and none fails open', async () => {
    const owner = await newAccount(database.db);
    const url = new URL(database.url);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    proxies.push(proxy);
    url.host = `${proxy.host}:${proxy.port}`;
    const { filter, metrics } = await readyFilter({ retryMs: 0 }, url.toString());
    const lookups = createSuppressionLookups(database.db, undefined, filter);
    const [before, during, after] = uniqueEmails(3);

    await add(owner.accountId, [before!]);
    expect(await filter.screen(owner.accountId, [''], [before!])).toEqual([true]);
    proxy.stop();
    await add(owner.accountId, [during!]);
    const [found] = await lookups.suppressing(owner.accountId, [during!]);
    expect(found?.email).toBe(during);
    expect(await counted(metrics, 'suppression_filter_fallbacks_total', { reason: 'tail_failed' })).toBeGreaterThan(0);

    proxy.start();
    await add(owner.accountId, [after!]);
    await vi.waitFor(
      async () => expect(await filter.screen(owner.accountId, [''], [during!, after!])).toEqual([true, true]),
      UNTIL_SETTLED,
    );
  });

  it('when the retention deleted changes it had not read, then it builds itself again and asks the database meanwhile', async () => {
    const owner = await newAccount(database.db);
    const { filter, metrics } = await readyFilter();
    const lookups = createSuppressionLookups(database.db, undefined, filter);
    const [unread] = uniqueEmails(1);
    await add(owner.accountId, [unread!]);
    // What a retention does to a process cut off for longer than it: the change it had still to
    // read is deleted, and the mark says so. (pruneKeyChanges itself stops below every running
    // transaction of the server, which the other test files' make a moving target.)
    await database.db.query({
      text: `WITH unread AS (DELETE FROM suppression_key_changes WHERE $1 = ANY (emails) RETURNING xid)
             UPDATE suppression_key_changes_pruned SET below = ((SELECT max(xid)::text::numeric FROM unread) + 1)::text::xid8`,
      values: [unread],
    });

    const [found] = await lookups.suppressing(owner.accountId, [unread!]);
    expect(found?.email).toBe(unread);
    await vi.waitFor(async () => expect(await builds(metrics, 'fell_behind')).toBeGreaterThan(0), UNTIL_SETTLED);
    await vi.waitFor(
      async () => expect(await filter.screen(owner.accountId, [''], [unread!])).toEqual([true]),
      UNTIL_SETTLED,
    );
  });

  it('when the retention deletes the changes it has read, then they are gone and the filter answers for every entry', async () => {
    const owner = await newAccount(database.db);
    const { filter } = await readyFilter();
    const emails = uniqueEmails(2);
    await add(owner.accountId, [emails[0]!]);
    expect(await filter.screen(owner.accountId, [''], [emails[0]!])).toEqual([true]);
    expect(await pruneKeyChanges(database.db, '0 seconds')).not.toBeNull();
    await add(owner.accountId, [emails[1]!]);
    await vi.waitFor(
      async () => expect(await filter.screen(owner.accountId, [''], emails)).toEqual([true, true]),
      UNTIL_SETTLED,
    );
  });
});

describe('when the filter grows stale', () => {
  it('when a share of its entries are removed, then it is built again in the background while it goes on answering, and the removed addresses read as absent', async () => {
    const owner = await newAccount(database.db);
    const { filter, metrics } = await readyFilter({
      minRebuildIntervalMs: 0,
      bounds: { staleShare: 0.0001, unconfirmedShare: 1, unconfirmedSample: Number.MAX_SAFE_INTEGER },
    });
    const [kept, removed] = uniqueEmails(2);
    await add(owner.accountId, [kept!, removed!]);
    await database.db.query({
      text: 'DELETE FROM suppressions WHERE account_id = $1 AND email = $2',
      values: [owner.accountId, removed],
    });
    expect(await filter.screen(owner.accountId, [''], [kept!])).toEqual([true]);
    await vi.waitFor(async () => expect(await builds(metrics, 'stale')).toBeGreaterThan(0), UNTIL_SETTLED);
    expect(await filter.screen(owner.accountId, [''], [kept!, removed!])).toEqual([true, false]);
    expect(await counted(metrics, 'suppression_filter_fallbacks_total')).toBe(0);
  });
});
