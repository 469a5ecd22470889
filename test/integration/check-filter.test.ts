import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { apiClient, expectError } from '../support/api-client.js';
import { churn } from '../support/churn.js';
import { counted, startFilteredApp, type FilteredApp } from '../support/check-filter-app.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
let first: FilteredApp;
let second: FilteredApp;
/** The lookups' statements run through the first app's pool. */
let suppressionReads = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const counting: Database = {
    ...database.db,
    query: (query) => {
      // The reads of a lookup: the batched probe of its addresses, and the scopes named in a 404.
      if (/^(suppressions-by-|named-scopes-)/.test(query.name ?? '')) suppressionReads += 1;
      return database.db.query(query);
    },
  };
  [first, second] = await Promise.all([startFilteredApp(database, {}, counting), startFilteredApp(database)]);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await database?.drop();
});

async function connected(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return client;
}

const insertSql = `INSERT INTO suppressions (id, account_id, email, origin, scope) VALUES ($1, $2, $3, 'manual', $4)`;

async function insertIn(client: pg.Client, accountId: string, email: string, scope = ''): Promise<void> {
  await client.query(insertSql, [randomUUID(), accountId, email, scope]);
}

const suppressedOf = (body: { suppressed: { email: string }[] }) => body.suppressed.map((entry) => entry.email);

describe('the check filter never fails open', () => {
  it('when a transaction that took its id first commits after a later one, then a check that begins once its commit returns reports its address', async () => {
    const owner = await newAccount(database.db);
    const [early, late, clean] = uniqueEmails(3);
    const [older, newer] = await Promise.all([connected(), connected()]);
    try {
      await older.query('BEGIN');
      await insertIn(older, owner.accountId, early!);
      const olderXid = (await older.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid;
      await newer.query('BEGIN');
      await insertIn(newer, owner.accountId, late!);
      const newerXid = (await newer.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid;
      await newer.query('COMMIT');
      expect(BigInt(olderXid)).toBeLessThan(BigInt(newerXid));

      // The later transaction is applied; the earlier one, still open, is not on the list yet.
      expect(await first.filter.screen(owner.accountId, [''], [early!, late!, clean!])).toEqual([false, true, false]);

      await older.query('COMMIT');
      const api = apiClient(second.server.url, owner.token);
      const check = await api.post('/suppressions/check', { emails: [clean, early, late] });
      expect(check.status).toBe(200);
      expect(suppressedOf(check.body)).toEqual([early, late]);
      expect(await first.filter.screen(owner.accountId, [''], [early!])).toEqual([true]);
    } finally {
      await Promise.all([older.end(), newer.end()]);
    }
  });

  it('when one process adds an address and another checks it at once, with other writers and removals running, then every check reports it', async () => {
    const owner = await newAccount(database.db);
    const adder = apiClient(first.server.url, owner.token);
    const checker = apiClient(second.server.url, owner.token);
    // Writers and removals on both processes while the adds and checks run.
    const background = churn([adder, checker], uniqueEmails(40));
    const missed: string[] = [];
    try {
      for (const email of uniqueEmails(40)) {
        expect((await adder.post('/suppressions', { email })).status).toBe(201);
        const check = await checker.post('/suppressions/check', { emails: [uniqueEmail(), email] });
        if (!suppressedOf(check.body).includes(email)) missed.push(email);
      }
    } finally {
      await background.stop();
    }
    expect(missed).toEqual([]);
    expect(await counted(second.metrics, 'suppression_filter_answers_total', { answer: 'absent' })).toBeGreaterThan(0);
  });

  it('when a COPY commits, then the next check reports every address it copied', async () => {
    const owner = await newAccount(database.db);
    const emails = uniqueEmails(2500, 'copied.example');
    const client = await connected();
    try {
      const lines = emails.map((email) => `${randomUUID()}\t${owner.accountId}\t${email}\tmanual\n`);
      await pipeline(
        Readable.from(lines),
        client.query(copyFrom('COPY suppressions (id, account_id, email, origin) FROM STDIN')),
      );
    } finally {
      await client.end();
    }
    expect(await second.filter.screen(owner.accountId, [''], emails)).toEqual(emails.map(() => true));
    const check = await apiClient(second.server.url, owner.token).post('/suppressions/check', {
      emails: [...emails.slice(0, 50), uniqueEmail()],
    });
    expect(suppressedOf(check.body)).toEqual(emails.slice(0, 50));
  });

  it('when one transaction commits more change records than a round reads in one statement, then the round pages through them all in one snapshot', async () => {
    const owner = await newAccount(database.db);
    const emails = uniqueEmails(150, 'paged.example');
    const client = await connected();
    try {
      await client.query('BEGIN');
      // A statement each: 150 change records, past the 100 a round's statement returns.
      for (const email of emails) await insertIn(client, owner.accountId, email);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    expect(await first.filter.screen(owner.accountId, [''], emails)).toEqual(emails.map(() => true));
  });
});

describe('what the filter covers', () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await newAccount(database.db);
  });

  it('when an entry is of a named scope, then a check in that scope reports it and a check of the whole account does not', async () => {
    const api = apiClient(second.server.url, owner.token);
    const [scoped, global] = uniqueEmails(2);
    expect(
      (await apiClient(first.server.url, owner.token).post('/suppressions', { email: scoped, scope: 'newsletter' }))
        .status,
    ).toBe(201);
    expect((await apiClient(first.server.url, owner.token).post('/suppressions', { email: global })).status).toBe(201);

    const inScope = await api.post('/suppressions/check', { emails: [scoped, global], scope: 'newsletter' });
    expect(suppressedOf(inScope.body)).toEqual([scoped, global]);
    const wholeAccount = await api.post('/suppressions/check', { emails: [scoped, global] });
    expect(suppressedOf(wholeAccount.body)).toEqual([global]);
  });

  it('when an address is allowlisted after its entry was added, then the check does not report it, and once the rule is removed it does', async () => {
    const api = apiClient(second.server.url, owner.token);
    const email = uniqueEmail('staff.example');
    expect((await api.post('/suppressions', { email })).status).toBe(201);
    const rule = await api.post('/allowlist', { email });
    expect(rule.status).toBe(201);
    expect(suppressedOf((await api.post('/suppressions/check', { emails: [email] })).body)).toEqual([]);
    expect((await api.delete(`/allowlist/${rule.body.id}`)).status).toBe(200);
    expect(suppressedOf((await api.post('/suppressions/check', { emails: [email] })).body)).toEqual([email]);
  });

  it('when an address has no entry in any scope, then GET /suppressions/{email} answers the documented 404 without reading the table', async () => {
    const api = apiClient(first.server.url, owner.token);
    const before = suppressionReads;
    const response = await api.get(`/suppressions/${encodeURIComponent(uniqueEmail())}`);
    expectError(response, 404, 'not_found');
    expect(suppressionReads).toBe(before);
  });

  it('when every address asked about may be on the list, then the database is asked at once and no round of changes is waited for; an absent or a remembered one still waits for its round', async () => {
    // Idle rounds only after ten minutes: every round counted here is one a request waited for.
    const app = await startFilteredApp(database, { idleRoundMs: 600_000 });
    try {
      const api = apiClient(app.server.url, owner.token);
      const email = uniqueEmail();
      expect((await api.post('/suppressions', { email })).status).toBe(201);
      // The first lookup's round brings the add into the filter; from then on it answers "maybe".
      expect((await api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
      const rounds = () => counted(app.metrics, 'suppression_filter_rounds_total');
      const before = await rounds();
      for (let lookup = 0; lookup < 10; lookup += 1) {
        const found = await api.get(`/suppressions/${encodeURIComponent(email)}`);
        expect(found.status).toBe(200);
        expect(found.body).toMatchObject({ email });
      }
      expect(await rounds()).toBe(before);
      expectError(await api.get(`/suppressions/${encodeURIComponent(uniqueEmail())}`), 404, 'not_found');
      expect(await rounds()).toBe(before + 1);
      // The check keeps the entry it finds, and answers it from memory only once a round has settled.
      expect(suppressedOf((await api.post('/suppressions/check', { emails: [email] })).body)).toEqual([email]);
      const kept = await rounds();
      expect(suppressedOf((await api.post('/suppressions/check', { emails: [email] })).body)).toEqual([email]);
      expect(await rounds()).toBe(kept + 1);
      expect(await counted(app.metrics, 'suppression_filter_answers_total', { answer: 'cached' })).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('when an address has only an entry of a named scope, then GET /suppressions/{email} reads the table and finds it in that scope', async () => {
    const api = apiClient(first.server.url, owner.token);
    const email = uniqueEmail();
    expect((await api.post('/suppressions', { email, scope: 'promotions' })).status).toBe(201);
    const before = suppressionReads;
    expectError(await api.get(`/suppressions/${encodeURIComponent(email)}`), 404, 'not_found');
    expect(suppressionReads).toBeGreaterThan(before);
    const found = await api.get(`/suppressions/${encodeURIComponent(email)}?scope=promotions`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ email, scope: 'promotions' });
  });
});
