import { describe, expect, it, vi } from 'vitest';
import type { Database, Queryable } from '../../src/db/database.js';
import type { Reads } from '../../src/db/reads.js';
import { newId } from '../../src/domain/ids.js';
import { findStoppingEntries, findSuppressionsByEmails } from '../../src/suppressions/entries-by-pairs.js';
import { toSuppressionResource } from '../../src/suppressions/suppression.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { addInOrder } from '../support/api-client.js';
import { simultaneousGets } from '../support/simultaneous-requests.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

/** The file's database, counting the statements it is sent by name. */
function counting(db: Database): { db: Database; count(name: string): number } {
  const counts = new Map<string, number>();
  const query: Queryable['query'] = (config) => {
    counts.set(config.name ?? config.text, (counts.get(config.name ?? config.text) ?? 0) + 1);
    return db.query(config);
  };
  return { db: Object.assign(Object.create(db) as Database, { query }), count: (name) => counts.get(name) ?? 0 };
}

describe('lookups shared by concurrent requests', () => {
  it('when lookups of two accounts are asked in one turn of the event loop, then the database gets one query per kind of lookup for them all, and each gets its own answer', async () => {
    const first = await newApiAccount(app);
    const second = await newApiAccount(app);
    const firstEmails = uniqueEmails(30);
    const secondEmails = uniqueEmails(10);
    const firstIds = await addInOrder(first.api, firstEmails.slice(0, 5));
    await addInOrder(second.api, secondEmails.slice(0, 2));
    const database = counting(app.database.db);
    const lookups = createSuppressionLookups(database.db);

    const [ofFirst, ofSecond, byId, missing] = await Promise.all([
      Promise.all(firstEmails.map((email) => lookups.byEmail(first.accountId, email))),
      lookups.suppressing(second.accountId, secondEmails),
      Promise.all(firstIds.map((id) => lookups.byId(first.accountId, id))),
      lookups.byEmail(second.accountId, firstEmails[0]!),
    ]);

    expect(database.count('suppressions-by-emails-exact')).toBe(1);
    expect(database.count('stopping-entries-sending')).toBe(1);
    expect(database.count('suppressions-by-ids')).toBe(1);
    expect(ofFirst.map((entry) => entry?.email ?? null)).toEqual([
      ...firstEmails.slice(0, 5),
      ...firstEmails.slice(5).map(() => null),
    ]);
    expect(ofSecond.map((entry) => entry?.email ?? null)).toEqual([
      ...secondEmails.slice(0, 2),
      ...Array(8).fill(null),
    ]);
    expect(byId.map((entry) => entry?.id)).toEqual(firstIds);
    expect(missing).toBeNull();
  });

  it('when a lookup is alone, then it is answered without waiting on any timer', async () => {
    const { api, accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    await addInOrder(api, [email]);
    const lookups = createSuppressionLookups(app.database.db);
    await lookups.byEmail(accountId, email);
    // With setTimeout frozen, a batch scheduled on a timer would never be sent.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      expect((await lookups.byEmail(accountId, email))?.email).toBe(email);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when many GET lookups reach the app at once, then they cost fewer queries than requests and each answer is its own', async () => {
    const database = counting(app.database.db);
    const server = await app.startApp({ db: database.db });
    const owner = await newApiAccount(app, server);
    const emails = uniqueEmails(40);
    await owner.api.post('/suppressions/batch/add', { emails: emails.slice(0, 20) });
    await owner.api.get('/suppressions'); // the key is in the cache from here on
    const before = database.count('suppressions-by-emails-exact');

    const answers = await simultaneousGets(
      server,
      emails.map((email) => ({ path: `/suppressions/${email}`, token: owner.token })),
    );

    expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(200), ...Array(20).fill(404)]);
    expect(answers.slice(0, 20).map((answer) => (answer.body as { email: string }).email)).toEqual(emails.slice(0, 20));
    expect(database.count('suppressions-by-emails-exact') - before).toBeLessThan(emails.length);
  });

  it('when the check reads entries as JSON written by the database, then each is byte for byte the resource the API shows for it', async () => {
    const { accountId } = await newApiAccount(app);
    const db = app.database.db;
    const emails = ['plain@example.com', 'josé.ñandú@exämple.com', "o'hara+tag@example.com"];
    await addSuppressions(db, accountId, [
      { id: newId(), email: emails[0]!, origin: 'manual', sourceId: null },
      { id: newId(), email: emails[1]!, origin: 'bounce', sourceId: newId() },
      { id: newId(), email: emails[2]!, origin: 'complaint', sourceId: newId(), scope: 'news.weekly' },
    ]);
    // Times to the microsecond, whose last digits the resource drops.
    await db.query({
      text: `UPDATE suppressions SET created_at = t.at::timestamptz
             FROM unnest($2::text[], $3::text[]) AS t(email, at) WHERE account_id = $1 AND suppressions.email = t.email`,
      values: [
        accountId,
        emails,
        ['2026-01-02 03:04:05.999999+00', '1999-12-31 23:59:59.000001+00', '2026-11-28 08:00:00+02'],
      ],
    });
    const pairs = { accountIds: emails.map(() => accountId), values: emails, scopes: ['', '', 'news.weekly'] };

    const written = await findStoppingEntries(db, pairs, 'covering');
    const read = await findSuppressionsByEmails(db, pairs, 'exact');

    expect(written.map(({ at }) => at).sort()).toEqual([0, 1, 2]);
    for (const { at, item } of written) {
      const entry = read.find((found) => found.at === at)?.item;
      expect(entry).toBeDefined();
      expect(item.email).toBe(emails[at]);
      expect(item.resource).toBe(JSON.stringify(toSuppressionResource(entry!)));
    }
    expect(JSON.parse(written.find(({ at }) => at === 0)!.item.resource)).toMatchObject({
      created_at: '2026-01-02T03:04:05.999Z',
      source_id: null,
      scope: null,
    });
    expect(JSON.parse(written.find(({ at }) => at === 2)!.item.resource)).toMatchObject({
      created_at: '2026-11-28T06:00:00.000Z',
      scope: 'news.weekly',
    });
  });

  it('when one batch reads some accounts from a replica and others from the primary, then each lookup still gets the answers of its own addresses', async () => {
    const first = await newApiAccount(app);
    const second = await newApiAccount(app);
    const firstEmails = uniqueEmails(6);
    const secondEmails = uniqueEmails(6);
    await addInOrder(first.api, [firstEmails[1]!, firstEmails[4]!]);
    await addInOrder(second.api, [secondEmails[0]!, secondEmails[5]!]);
    const database = counting(app.database.db);
    const served: string[] = [];
    // Both sides run on the one database there is; what is tested is that answers go back to their lookups.
    const reads = {
      replicated: true,
      route: () => Promise.resolve({ replica: new Set([first.accountId]), primaryReason: 'recent_write' as const }),
      onReplica: (work: (db: Database) => Promise<unknown>) => (served.push('replica'), work(database.db)),
      onPrimary: (work: (db: Database) => Promise<unknown>) => (served.push('primary'), work(database.db)),
    } as unknown as Reads;
    const lookups = createSuppressionLookups(app.database.db, reads);

    const [ofSecond, ofFirst, one] = await Promise.all([
      lookups.suppressing(second.accountId, secondEmails),
      lookups.suppressing(first.accountId, firstEmails),
      lookups.byEmail(first.accountId, firstEmails[4]!),
    ]);

    expect(served.sort()).toEqual(['primary', 'replica', 'replica']);
    expect(database.count('stopping-entries-sending')).toBe(2);
    expect(ofFirst.map((entry) => entry?.email ?? null)).toEqual([
      null,
      firstEmails[1],
      null,
      null,
      firstEmails[4],
      null,
    ]);
    expect(ofSecond.map((entry) => entry?.email ?? null)).toEqual([
      secondEmails[0],
      null,
      null,
      null,
      null,
      secondEmails[5],
    ]);
    expect(one?.email).toBe(firstEmails[4]);
  });

  it('when the lookups of one turn ask about more than 5,000 addresses, then they go in several statements and each answer still lands at its own position', async () => {
    const { api, accountId } = await newApiAccount(app);
    const checks = Array.from({ length: 6 }, () => uniqueEmails(1000));
    // Listed: the last address of each check and the first of the next, around each statement's edge.
    const listed = checks.flatMap((emails) => [emails[0]!, emails[999]!]);
    await api.post('/suppressions/batch/add', { emails: listed });
    const database = counting(app.database.db);
    const lookups = createSuppressionLookups(database.db);

    const answers = await Promise.all(checks.map((emails) => lookups.suppressing(accountId, emails)));

    expect(database.count('stopping-entries-sending')).toBe(2);
    answers.forEach((found, check) => {
      expect(found.map((entry, at) => (entry === null ? null : at))).toEqual(
        checks[check]!.map((_, at) => (at === 0 || at === 999 ? at : null)),
      );
      expect([found[0]?.email, found[999]?.email]).toEqual([checks[check]![0], checks[check]![999]]);
    });
  });
});
