import { describe, expect, it, vi } from 'vitest';
import type { Database, Queryable } from '../../src/db/database.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
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
    expect(database.count('suppressions-by-emails-sending')).toBe(1);
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
});
