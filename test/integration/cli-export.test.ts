import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExport } from '../../src/export/write-export.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import type { Suppression } from '../../src/suppressions/suppression.js';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmails } from '../support/emails.js';
import { exportText } from '../support/export-text.js';
import { runCli, spawnCli, type CliRun } from '../support/run-cli.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const HEADER = 'id,email,origin,source_id,created_at,scope';
const LARGE = 5_200;

const app = useTestApp();

interface Seeded {
  id: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
}

/** Adds one entry per origin given, oldest first, each in its own statement (and so its own created_at). */
async function seedOneByOne(accountId: string, origins: readonly Origin[]): Promise<Seeded[]> {
  const emails = uniqueEmails(origins.length);
  const seeded: Seeded[] = [];
  for (const [index, origin] of origins.entries()) {
    const entry = { id: newId(), email: emails[index]!, origin, sourceId: origin === 'manual' ? null : randomUUID() };
    await addSuppressions(app.database.db, accountId, [entry]);
    seeded.push(entry);
  }
  return seeded;
}

/** Adds `count` entries in one statement, oldest first. */
async function seedMany(accountId: string, count: number): Promise<Seeded[]> {
  const origins: Origin[] = ['bounce', 'complaint', 'manual'];
  const entries = uniqueEmails(count).map((email, index) => {
    const origin = origins[index % 3]!;
    return { id: newId(), email, origin, sourceId: origin === 'manual' ? null : randomUUID() };
  });
  await addSuppressions(app.database.db, accountId, entries);
  return entries;
}

async function createdAtOf(accountId: string): Promise<Map<string, string>> {
  const { rows } = await app.database.db.query<{ id: string; created_at: Date }>({
    text: 'SELECT id, created_at FROM suppressions WHERE account_id = $1',
    values: [accountId],
  });
  return new Map(rows.map((row) => [row.id, row.created_at.toISOString()]));
}

const lines = (text: string): string[] => text.split('\n').slice(0, -1);

/** Checked-out clients of the test pool, and sessions of the test database left inside a transaction. */
async function leftOpen(): Promise<{ checkedOut: number; idleInTransaction: number }> {
  const { pool } = app.database.db;
  const checkedOut = pool.totalCount - pool.idleCount;
  const { rows } = await app.database.db.query<{ count: number }>({
    text: `SELECT count(*)::int AS count FROM pg_stat_activity
           WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
  });
  return { checkedOut, idleInTransaction: rows[0]!.count };
}

describe('export as CSV', () => {
  it('when an account has entries of every origin, then the CSV has the header and one line per entry, newest first', async () => {
    const { accountId } = await newAccount(app.database.db);
    const seeded = await seedOneByOne(accountId, ['bounce', 'manual', 'complaint', 'bounce']);
    const createdAt = await createdAtOf(accountId);

    const { text, result } = await exportText(app.database.db, accountId, 'csv');

    const expected = [...seeded]
      .reverse()
      .map(
        (entry) => `${entry.id},${entry.email},${entry.origin},${entry.sourceId ?? ''},${createdAt.get(entry.id)},\n`,
      );
    expect(text).toBe(`${HEADER}\n${expected.join('')}`);
    expect(result).toEqual({ exported: 4, complete: true });
    expect(lines(text)[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,$/);
  });

  it('when an origin is given, then only entries of that origin are exported, in both formats', async () => {
    const { accountId } = await newAccount(app.database.db);
    const seeded = await seedOneByOne(accountId, ['bounce', 'complaint', 'manual', 'complaint', 'bounce']);
    const complaints = seeded.filter((entry) => entry.origin === 'complaint').reverse();

    const csv = await exportText(app.database.db, accountId, 'csv', { origin: 'complaint' });
    const ndjson = await exportText(app.database.db, accountId, 'ndjson', { origin: 'complaint' });

    expect(
      lines(csv.text)
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual(complaints.map((entry) => entry.id));
    expect(
      lines(csv.text)
        .slice(1)
        .every((line) => line.split(',')[2] === 'complaint'),
    ).toBe(true);
    expect(lines(ndjson.text).map((line) => JSON.parse(line).id)).toEqual(complaints.map((entry) => entry.id));
    expect(csv.result).toEqual({ exported: 2, complete: true });
  });

  it('when the account has no entries, then the CSV is the header alone and the NDJSON is empty', async () => {
    const { accountId } = await newAccount(app.database.db);

    expect(await exportText(app.database.db, accountId, 'csv')).toEqual({
      text: `${HEADER}\n`,
      result: { exported: 0, complete: true },
    });
    expect(await exportText(app.database.db, accountId, 'ndjson')).toEqual({
      text: '',
      result: { exported: 0, complete: true },
    });
    expect((await exportText(app.database.db, accountId, 'csv', { origin: 'bounce' })).text).toBe(`${HEADER}\n`);
  });

  it('when another account has entries, even for the same addresses, then they are never included', async () => {
    const { accountId: mine } = await newAccount(app.database.db);
    const { accountId: theirs } = await newAccount(app.database.db);
    const own = await seedOneByOne(mine, ['manual', 'bounce']);
    await addSuppressions(
      app.database.db,
      theirs,
      own.map((entry) => ({ ...entry, id: newId(), origin: 'complaint' as const })),
    );
    await seedMany(theirs, 10);

    const { text } = await exportText(app.database.db, mine, 'ndjson');

    expect(lines(text).map((line) => JSON.parse(line).id)).toEqual([own[1]!.id, own[0]!.id]);
    expect(lines(text).map((line) => JSON.parse(line).origin)).toEqual(['bounce', 'manual']);
  });
});

describe('export as NDJSON', () => {
  it('when exported as NDJSON, then each line is the entry exactly as GET /suppressions lists it', async () => {
    const { accountId, api } = await newApiAccount(app);
    await seedOneByOne(accountId, ['complaint', 'manual', 'bounce']);

    const { text } = await exportText(app.database.db, accountId, 'ndjson');
    const listed = await api.get('/suppressions?limit=100');

    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(3);
    expect(lines(text).map((line) => JSON.parse(line))).toEqual(listed.body.data);
    // The same keys in the same order as the API's JSON.
    expect(lines(text)[0]).toBe(JSON.stringify(listed.body.data[0]));
  });
});

describe('large lists, slow readers and early stops', () => {
  let accountId: string;
  let seeded: Seeded[];

  beforeAll(async () => {
    ({ accountId } = await newAccount(app.database.db));
    seeded = await seedMany(accountId, LARGE);
  });

  it(`when an account has ${LARGE} entries, then every one is streamed, newest first, and the client goes back to the pool`, async () => {
    const newestFirst = [...seeded].reverse().map((entry) => entry.id);

    const csv = await exportText(app.database.db, accountId, 'csv');
    // A batch size that divides the count exactly: the last read finds nothing.
    const ndjson = await exportText(app.database.db, accountId, 'ndjson', { batchSize: 100 });

    expect(csv.result).toEqual({ exported: LARGE, complete: true });
    expect(lines(csv.text)).toHaveLength(LARGE + 1);
    expect(
      lines(csv.text)
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual(newestFirst);
    expect(lines(ndjson.text)).toHaveLength(LARGE);
    expect(lines(ndjson.text).map((line) => JSON.parse(line).id)).toEqual(newestFirst);
    expect(await leftOpen()).toEqual({ checkedOut: 0, idleInTransaction: 0 });
  });

  it('when the destination stops taking data, then the export reads no further ahead, and closing it releases the client', async () => {
    let pulled = 0;
    async function* counting(): AsyncGenerator<Suppression> {
      for await (const entry of streamSuppressions(app.database.db, { accountId })) {
        pulled += 1;
        yield entry;
      }
    }
    // Takes one write and never finishes it, as a pipe whose reader has stopped reading.
    const stalled = new Writable({ highWaterMark: 16 * 1024, write: () => undefined });

    const running = writeExport(counting(), stalled, 'csv');
    await sleep(300);
    const pulledWhileStalled = pulled;
    await sleep(200);

    expect(pulled).toBe(pulledWhileStalled);
    // What fits in the 64 KiB piece being written plus the stream buffers, far from the whole list.
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(2_000);
    expect((await leftOpen()).checkedOut).toBe(1);

    stalled.destroy();
    expect(await running).toEqual({ exported: pulled, complete: false });
    expect(await leftOpen()).toEqual({ checkedOut: 0, idleInTransaction: 0 });
  });

  it('when the reader closes after the first piece (| head), then the export ends quietly and the pool stays usable', async () => {
    let writes = 0;
    const head = new Writable({
      write(_chunk, _encoding, callback) {
        writes += 1;
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });

    const result = await writeExport(streamSuppressions(app.database.db, { accountId }), head, 'ndjson');

    expect(writes).toBe(1);
    expect(result.complete).toBe(false);
    expect(result.exported).toBeLessThan(LARGE);
    expect(await leftOpen()).toEqual({ checkedOut: 0, idleInTransaction: 0 });
    // The client went back as it was taken: no transaction, the pool's own statement timeout.
    const { rows } = await app.database.db.query<{ statement_timeout: string }>({ text: 'SHOW statement_timeout' });
    expect(rows[0]!.statement_timeout).toBe('10s');
    expect((await exportText(app.database.db, accountId, 'csv', { origin: 'manual' })).result.complete).toBe(true);
  });

  it('when the consumer breaks out of the loop, then the client is released', async () => {
    let seen = 0;
    for await (const entry of streamSuppressions(app.database.db, { accountId, batchSize: 50 })) {
      expect(entry.accountId).toBe(accountId);
      seen += 1;
      if (seen === 120) break;
    }
    expect(await leftOpen()).toEqual({ checkedOut: 0, idleInTransaction: 0 });
  });
});

describe('a reader slower than the statement timeout, and a lost connection', () => {
  let accountId: string;
  let db: Database;

  beforeAll(async () => {
    ({ accountId } = await newAccount(app.database.db));
    await seedMany(accountId, 3_000);
    db = createDatabase({
      url: app.database.url,
      poolSize: 2,
      logger: createLogger('silent'),
      statementTimeoutMs: 200,
      applicationName: 'export-test-short-timeout',
    });
  });

  afterAll(async () => {
    await db?.close();
  });

  it('when the reader is slower than the statement timeout, then the export still completes', async () => {
    let read = 0;
    for await (const entry of streamSuppressions(db, { accountId, origin: 'bounce', batchSize: 250 })) {
      expect(entry.origin).toBe('bounce');
      read += 1;
      if (read % 250 === 0) await sleep(100);
    }
    expect(read).toBe(1_000);
  });

  it('when the connection is lost mid-export, then it fails as service unavailable and the broken client is discarded', async () => {
    const entries = streamSuppressions(db, { accountId, batchSize: 100 });
    try {
      expect((await entries.next()).done).toBe(false);
      // Between two reads of the cursor the session is "active": the portal is open, no Sync sent.
      const { rows } = await app.database.db.query<{ terminated: boolean }>({
        text: `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
               WHERE application_name = 'export-test-short-timeout' AND query LIKE 'SELECT id, account_id, email%'`,
      });
      expect(rows).toEqual([{ terminated: true }]);
      await sleep(100);

      const reading = (async () => {
        for (let step = await entries.next(); !step.done; step = await entries.next())
          expect(step.value.accountId).toBe(accountId);
      })();

      await expect(reading).rejects.toBeInstanceOf(AppError);
      await expect(reading).rejects.toMatchObject({ code: 'service_unavailable' });
    } finally {
      await entries.return();
    }
    expect(db.pool.totalCount).toBe(0);
    expect((await db.query<{ one: number }>({ text: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }]);
  });
});

/** Runs the command line against the test database. */
function runExportCli(args: string[]): Promise<CliRun> {
  return runCli(args, { DATABASE_URL: app.database.url });
}

describe('the export command', () => {
  it('when run with --format ndjson, then stdout holds the entries alone and the summary goes to stderr', async () => {
    const { account, api } = await newApiAccount(app);
    await seedOneByOne(account.id, ['bounce', 'complaint', 'manual']);
    const listed = await api.get('/suppressions');

    const run = await runExportCli(['export', '--account', account.name, '--format', 'ndjson']);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe(listed.body.data.map((entry: object) => `${JSON.stringify(entry)}\n`).join(''));
    expect(run.stderr).toMatch(/^Exported 3 entries\.$/m);
  });

  it("when run with --escape-formulas, then a cell that begins with = gets a ' in front and is quoted; without it, the cell is as stored", async () => {
    const { account } = await newApiAccount(app);
    const entry = {
      id: newId(),
      email: '=1+1@example.com',
      origin: 'manual' as const,
      sourceId: null,
      scope: '-promo',
    };
    await addSuppressions(app.database.db, account.id, [entry]);
    const createdAt = (await createdAtOf(account.id)).get(entry.id);

    const escaped = await runExportCli(['export', '--account', account.name, '--escape-formulas']);
    const plain = await runExportCli(['export', '--account', account.name]);

    expect(escaped.code).toBe(0);
    expect(escaped.stdout).toBe(`${HEADER}\n${entry.id},"'=1+1@example.com",manual,,${createdAt},"'-promo"\n`);
    expect(escaped.stderr).toMatch(/^Exported 1 entry\.$/m);
    expect(plain.stdout).toBe(`${HEADER}\n${entry.id},=1+1@example.com,manual,,${createdAt},-promo\n`);
  });

  it('when --escape-formulas is given with --format ndjson, then it says the flag is for csv, prints nothing and exits 1', async () => {
    const { account } = await newApiAccount(app);

    const run = await runExportCli(['export', '--account', account.name, '--format', 'ndjson', '--escape-formulas']);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --escape-formulas is only for --format csv\.$/m);
  });

  it('when the account is unknown, then it says so on stderr, prints nothing on stdout and exits 1', async () => {
    const unknown = `nobody-${randomUUID()}`;

    const run = await runExportCli(['export', '--account', unknown]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^error: No account named or with id "${unknown}"\\.$`, 'm'));
  });

  it('when the reader closes the program’s stdout early, then the export stops quietly with exit code 0', async () => {
    const { accountId } = await newAccount(app.database.db);
    await seedMany(accountId, 3_000);

    const run = await spawnCli(
      ['export', '--account', accountId, '--format', 'ndjson'],
      { DATABASE_URL: app.database.url },
      '',
      { closeAfterFirstLine: true },
    );

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ object: 'suppression' });
    expect(run.stderr).not.toMatch(/error|Exported/i);
    expect(await leftOpen()).toEqual({ checkedOut: 0, idleInTransaction: 0 });
  });
});
