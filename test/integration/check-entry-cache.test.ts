import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { apiClient, type ApiClient } from '../support/api-client.js';
import { churn } from '../support/churn.js';
import { counted, startFilteredApp, type FilteredApp } from '../support/check-filter-app.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
/** The process whose checks are counted; `writer` is another API process on the same database. */
let checker: FilteredApp;
let writer: FilteredApp;
/** Addresses the checker's checks asked the database about. */
let addressesRead = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const counting: Database = {
    ...database.db,
    query: (query) => {
      if ((query.name ?? '').startsWith('stopping-entries-')) {
        addressesRead += (query.values?.[1] as unknown[] | undefined)?.length ?? 0;
      }
      return database.db.query(query);
    },
  };
  [checker, writer] = await Promise.all([startFilteredApp(database, {}, counting), startFilteredApp(database)]);
});

afterAll(async () => {
  await Promise.all([checker?.close(), writer?.close()]);
  await database?.drop();
});

const suppressedOf = (body: { suppressed: { email: string }[] }) => body.suppressed.map((entry) => entry.email);

/** A check through the counted process: its answer, and how many addresses it asked the database about. */
async function check(owner: TestAccount, emails: string[], scope?: string) {
  const before = addressesRead;
  const response = await apiClient(checker.server.url, owner.token).post('/suppressions/check', { emails, scope });
  expect(response.status).toBe(200);
  return { body: response.body, read: addressesRead - before };
}

/**
 * Thirty races of a change through the writing process against checks through the counted one,
 * with writers and removals running on both: each `race` says whether its address was answered
 * from memory before the change, and the address when the check after the change answered wrongly.
 */
async function racesUnderChurn(
  owner: TestAccount,
  race: (clients: { writes: ApiClient; reads: ApiClient }) => Promise<{ fromMemory: boolean; wrong: string | null }>,
) {
  const writes = apiClient(writer.server.url, owner.token);
  const reads = apiClient(checker.server.url, owner.token);
  const background = churn([writes, reads], uniqueEmails(30));
  const wrong: string[] = [];
  let answeredFromMemory = 0;
  try {
    for (let round = 0; round < 30; round += 1) {
      const outcome = await race({ writes, reads });
      if (outcome.fromMemory) answeredFromMemory += 1;
      if (outcome.wrong !== null) wrong.push(outcome.wrong);
    }
  } finally {
    await background.stop();
  }
  return { wrong, answeredFromMemory };
}

/**
 * A transaction that takes its id first (it runs `first`) and commits after a later one, which adds
 * `later`: `whileOpen` runs once the later one has committed, `afterCommit` once the first has.
 */
async function outOfOrderCommits(
  owner: TestAccount,
  first: { text: string; values: unknown[] },
  later: string,
  whileOpen: () => Promise<void>,
  afterCommit: () => Promise<void>,
) {
  const [older, newer] = [
    new pg.Client({ connectionString: database.url }),
    new pg.Client({ connectionString: database.url }),
  ];
  await Promise.all([older.connect(), newer.connect()]);
  try {
    await older.query('BEGIN');
    await older.query(first.text, first.values);
    await newer.query('BEGIN');
    await newer.query(`INSERT INTO suppressions (id, account_id, email, origin) VALUES ($1, $2, $3, 'manual')`, [
      randomUUID(),
      owner.accountId,
      later,
    ]);
    await newer.query('COMMIT');
    await whileOpen();
    await older.query('COMMIT');
    await afterCommit();
  } finally {
    await Promise.all([older.end(), newer.end()]);
  }
}

describe('the check answers an entry it found before from memory', () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await newAccount(database.db);
  });

  it('when a listed address is checked again, then it answers with the same entry and the database is not asked', async () => {
    const [listed, clean] = uniqueEmails(2);
    expect((await apiClient(writer.server.url, owner.token).post('/suppressions', { email: listed })).status).toBe(201);
    const first = await check(owner, [listed!, clean!]);
    expect(suppressedOf(first.body)).toEqual([listed]);
    expect(first.read).toBe(1);
    const cachedBefore = await counted(checker.metrics, 'suppression_filter_answers_total', { answer: 'cached' });
    const again = await check(owner, [clean!, listed!]);
    expect(again.read).toBe(0);
    expect(again.body.suppressed).toEqual(first.body.suppressed);
    expect(await counted(checker.metrics, 'suppression_filter_answers_total', { answer: 'cached' })).toBe(
      cachedBefore + 1,
    );
  });

  it('when the entry is removed through another process, then a check that begins after the removal answers not suppressed', async () => {
    const email = uniqueEmail();
    const writes = apiClient(writer.server.url, owner.token);
    const added = await writes.post('/suppressions', { email });
    expect(added.status).toBe(201);
    expect(suppressedOf((await check(owner, [email])).body)).toEqual([email]);
    expect((await check(owner, [email])).read).toBe(0);
    expect((await writes.delete(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
    expect(suppressedOf((await check(owner, [email])).body)).toEqual([]);
  });

  it('when one process removes addresses the other has just answered from memory, with writers running, then no check that begins after a removal reports it', async () => {
    const { wrong: stale, answeredFromMemory } = await racesUnderChurn(owner, async ({ writes, reads }) => {
      const email = uniqueEmail();
      expect((await writes.post('/suppressions', { email })).status).toBe(201);
      // Checked at once, and checked again while the removal below is under way.
      await check(owner, [email]);
      const again = reads.post('/suppressions/check', { emails: [email] });
      const fromMemory = (await check(owner, [email])).read === 0;
      expect((await writes.delete(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
      await again;
      return { fromMemory, wrong: suppressedOf((await check(owner, [email])).body).includes(email) ? email : null };
    });
    expect(stale).toEqual([]);
    expect(answeredFromMemory).toBeGreaterThan(0);
  });

  it('when the address is removed and added again, then the check answers with the new entry', async () => {
    const email = uniqueEmail();
    const writes = apiClient(writer.server.url, owner.token);
    const first = await writes.post('/suppressions', { email, origin: 'manual' });
    expect(first.status).toBe(201);
    expect((await check(owner, [email])).body.suppressed[0].id).toBe(first.body.id);
    expect((await writes.delete(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
    const second = await writes.post('/suppressions', { email, origin: 'manual' });
    expect(second.status).toBe(201);
    expect((await check(owner, [email])).body.suppressed[0].id).toBe(second.body.id);
  });

  it('when the address is allowlisted after its entry was answered from memory, then the next check does not report it', async () => {
    const email = uniqueEmail('partner.example');
    const writes = apiClient(writer.server.url, owner.token);
    expect((await writes.post('/suppressions', { email })).status).toBe(201);
    await check(owner, [email]);
    expect((await check(owner, [email])).read).toBe(0);
    expect((await writes.post('/allowlist', { domain: 'partner.example' })).status).toBe(201);
    expect(suppressedOf((await check(owner, [email])).body)).toEqual([]);
  });

  it("when the whole account's entry is added after a scope's entry was answered, then a check in that scope answers with the whole account's", async () => {
    const email = uniqueEmail();
    const writes = apiClient(writer.server.url, owner.token);
    expect((await writes.post('/suppressions', { email, scope: 'digest' })).status).toBe(201);
    expect((await check(owner, [email], 'digest')).body.suppressed[0].scope).toBe('digest');
    expect((await check(owner, [email], 'digest')).read).toBe(0);
    expect((await writes.post('/suppressions', { email })).status).toBe(201);
    expect((await check(owner, [email], 'digest')).body.suppressed[0].scope).toBeNull();
  });

  it('when a transaction that took its id first removes the entry and commits after a later one, then a check that begins once its commit returns does not report it', async () => {
    const [removed, later] = uniqueEmails(2);
    const writes = apiClient(writer.server.url, owner.token);
    expect((await writes.post('/suppressions', { email: removed })).status).toBe(201);
    await check(owner, [removed!]);
    expect((await check(owner, [removed!])).read).toBe(0);
    await outOfOrderCommits(
      owner,
      { text: 'DELETE FROM suppressions WHERE account_id = $1 AND email = $2', values: [owner.accountId, removed] },
      later!,
      // The later transaction is applied; the earlier one is still open, and its entry still stands.
      async () => expect(suppressedOf((await check(owner, [removed!, later!])).body)).toEqual([removed, later]),
      async () => expect(suppressedOf((await check(owner, [removed!, later!])).body)).toEqual([later]),
    );
  });

  it('when a removal was recorded without its keys, then nothing is answered from memory until it is read again', async () => {
    const email = uniqueEmail();
    expect((await apiClient(writer.server.url, owner.token).post('/suppressions', { email })).status).toBe(201);
    await check(owner, [email]);
    expect((await check(owner, [email])).read).toBe(0);
    // As the removals were recorded before the keys were: a count, and nothing to say whose.
    await database.db.query({ text: 'INSERT INTO suppression_key_changes (removed) VALUES (1)' });
    const after = await check(owner, [email]);
    expect(after.read).toBe(1);
    expect(suppressedOf(after.body)).toEqual([email]);
    expect((await check(owner, [email])).read).toBe(0);
  });
});

describe('the check answers from memory a "maybe" address it found no entry for', () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await newAccount(database.db);
  });

  const cachedAbsent = () => counted(checker.metrics, 'suppression_filter_answers_total', { answer: 'cached_absent' });

  /** An address whose removed entry left its bits in the filter: a "maybe" with no entry, checked twice. */
  async function staleMaybe(): Promise<string> {
    const email = uniqueEmail();
    const writes = apiClient(writer.server.url, owner.token);
    expect((await writes.post('/suppressions', { email })).status).toBe(201);
    expect((await writes.delete(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
    const first = await check(owner, [email]);
    expect(first.read).toBe(1);
    expect(first.body.suppressed).toEqual([]);
    return email;
  }

  it('when it is checked again, then it answers not suppressed without asking the database, counted as cached_absent', async () => {
    const email = await staleMaybe();
    const before = await cachedAbsent();
    const again = await check(owner, [email]);
    expect(again.read).toBe(0);
    expect(again.body.suppressed).toEqual([]);
    expect(await cachedAbsent()).toBe(before + 1);
  });

  it('when another process adds it, then a check that begins after the 201 reports it, in the whole account and in a scope', async () => {
    const email = await staleMaybe();
    expect((await check(owner, [email], 'digest')).read).toBe(1);
    expect((await check(owner, [email])).read).toBe(0);
    expect((await check(owner, [email], 'digest')).read).toBe(0);
    expect((await apiClient(writer.server.url, owner.token).post('/suppressions', { email })).status).toBe(201);
    expect(suppressedOf((await check(owner, [email])).body)).toEqual([email]);
    expect(suppressedOf((await check(owner, [email], 'digest')).body)).toEqual([email]);
  });

  it('when addresses answered as having no entry are added through another process with writers running, then every check that begins after an add reports it', async () => {
    const { wrong: missed, answeredFromMemory } = await racesUnderChurn(owner, async ({ writes, reads }) => {
      const email = await staleMaybe();
      const fromMemory = (await check(owner, [email])).read === 0;
      // A check in flight while the add is made, whose absence must not outlive the add.
      const during = reads.post('/suppressions/check', { emails: [email] });
      expect((await writes.post('/suppressions', { email })).status).toBe(201);
      await during;
      return { fromMemory, wrong: suppressedOf((await check(owner, [email])).body).includes(email) ? null : email };
    });
    expect(missed).toEqual([]);
    expect(answeredFromMemory).toBeGreaterThan(0);
  });

  it('when a transaction that took its id first adds it and commits after a later one, then a check that begins once its commit returns reports it', async () => {
    const email = await staleMaybe();
    const [later] = uniqueEmails(1);
    expect((await check(owner, [email])).read).toBe(0);
    await outOfOrderCommits(
      owner,
      {
        text: `INSERT INTO suppressions (id, account_id, email, origin) VALUES ($1, $2, $3, 'manual')`,
        values: [randomUUID(), owner.accountId, email],
      },
      later!,
      // The later add is applied; the earlier one is still open, and the address still has no entry.
      async () => expect(suppressedOf((await check(owner, [email, later!])).body)).toEqual([later]),
      async () => expect(suppressedOf((await check(owner, [email, later!])).body)).toEqual([email, later]),
    );
  });
});
