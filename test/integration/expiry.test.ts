import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImport, recordImportJob } from '../../src/imports/import-repository.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { createLogger } from '../../src/logger.js';
import { EXPIRE_ENTRIES_JOB, runExpiry, scheduleExpiry } from '../../src/policy/expire.js';
import { MAINTENANCE_QUEUE } from '../../src/queues.js';
import { startMaintenanceWorker, type MaintenanceWorker } from '../../workers/maintenance-worker.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmails } from '../support/emails.js';
import { useTestDatabase } from '../support/test-database.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';
import { queueConfig } from '../support/test-config.js';

const database = useTestDatabase();

/** Suppresses these addresses with this origin and makes their entries `days` old; returns their ids. */
async function suppressAged(accountId: string, emails: string[], origin: Origin, days: number): Promise<string[]> {
  const added = await addSuppressions(
    database.db,
    accountId,
    emails.map((email) => ({ id: newId(), email, origin, sourceId: null })),
  );
  await database.db.query({
    text: `UPDATE suppressions SET created_at = now() - $3 * interval '1 day' WHERE account_id = $1 AND email = ANY($2)`,
    values: [accountId, emails, days],
  });
  return added.map((entry) => entry.id);
}

/** The account's addresses still on the list, sorted. */
async function listed(accountId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows.map((row) => row.email);
}

interface AuditRow {
  event_id: string;
  type: string;
  outcome: string;
  removal_reason: string | null;
  api_key_id: string | null;
  suppression_id: string;
  email: string;
  received_at: Date;
}

async function expiryAudit(accountId: string): Promise<AuditRow[]> {
  const { rows } = await database.db.query<AuditRow>({
    text: `SELECT event_id, type, outcome, removal_reason, api_key_id, suppression_id, email, received_at
           FROM suppression_events WHERE account_id = $1 AND removal_reason = 'expired' ORDER BY email, received_at`,
    values: [accountId],
  });
  return rows;
}

async function accountWithExpiry(expiry: Partial<Record<Origin, number | null>>): Promise<string> {
  const { accountId } = await newAccount(database.db);
  await updateSettings(database.db, accountId, { expire_after_days: expiry });
  return accountId;
}

describe('expiry by origin', () => {
  it('when an entry of each origin is as old as its origin’s expiry, then each is removed', async () => {
    const accountId = await accountWithExpiry({ bounce: 30, complaint: 60, manual: 90 });
    const [bounce, complaint, manual] = uniqueEmails(3);
    await suppressAged(accountId, [bounce!], 'bounce', 30);
    await suppressAged(accountId, [complaint!], 'complaint', 61);
    await suppressAged(accountId, [manual!], 'manual', 400);

    expect(await runExpiry(database.db)).toEqual({ removed: 3 });
    expect(await listed(accountId)).toEqual([]);
  });

  it('when entries are younger than their origin’s expiry, then they stay', async () => {
    const accountId = await accountWithExpiry({ bounce: 30, complaint: 60, manual: 90 });
    const [bounce, complaint, manual, fresh] = uniqueEmails(4);
    await suppressAged(accountId, [bounce!], 'bounce', 29);
    await suppressAged(accountId, [complaint!], 'complaint', 59);
    // Older than the bounce and complaint expiries, but a manual entry.
    await suppressAged(accountId, [manual!], 'manual', 89);
    await suppressAged(accountId, [fresh!], 'bounce', 0);

    await runExpiry(database.db);
    expect(await listed(accountId)).toEqual([bounce, complaint, manual, fresh].sort());
  });

  it('when an origin’s expiry is null, then its entries never expire', async () => {
    const accountId = await accountWithExpiry({ bounce: 30, complaint: null });
    const [bounce, complaint, manual] = uniqueEmails(3);
    await suppressAged(accountId, [bounce!], 'bounce', 3000);
    await suppressAged(accountId, [complaint!], 'complaint', 3000);
    await suppressAged(accountId, [manual!], 'manual', 3000);

    await runExpiry(database.db);
    expect(await listed(accountId)).toEqual([complaint, manual].sort());
  });

  it('when an account has no settings, or settings without any expiry, then its entries are untouched', async () => {
    const { accountId: withoutSettings } = await newAccount(database.db);
    const { accountId: withoutExpiry } = await newAccount(database.db);
    await updateSettings(database.db, withoutExpiry, { soft_bounce_threshold: 3 });
    const [first, second] = uniqueEmails(2);
    await suppressAged(withoutSettings, [first!], 'bounce', 3650);
    await suppressAged(withoutExpiry, [second!], 'complaint', 3650);

    await runExpiry(database.db);
    expect(await listed(withoutSettings)).toEqual([first]);
    expect(await listed(withoutExpiry)).toEqual([second]);
  });

  it('when a setting changes between runs, then the next run applies it', async () => {
    const accountId = await accountWithExpiry({ bounce: null, manual: 5 });
    const [bounce, manual] = uniqueEmails(2);
    await suppressAged(accountId, [bounce!], 'bounce', 10);
    await suppressAged(accountId, [manual!], 'manual', 10);

    await updateSettings(database.db, accountId, { expire_after_days: { manual: 30 } });
    await runExpiry(database.db);
    expect(await listed(accountId)).toEqual([bounce, manual].sort());

    await updateSettings(database.db, accountId, { expire_after_days: { bounce: 7 } });
    await runExpiry(database.db);
    expect(await listed(accountId)).toEqual([manual]);
  });
});

describe('what an expiry records', () => {
  it('when an entry expires, then its removal is in the audit trail with reason expired and no key', async () => {
    const accountId = await accountWithExpiry({ complaint: 14 });
    const [email] = uniqueEmails(1);
    const [id] = await suppressAged(accountId, [email!], 'complaint', 20);
    const before = Date.now();

    await runExpiry(database.db);
    const audit = await expiryAudit(accountId);
    expect(audit).toEqual([
      {
        event_id: `expired-${id}`,
        type: 'removal',
        outcome: 'removed',
        removal_reason: 'expired',
        api_key_id: null,
        suppression_id: id,
        email,
        received_at: expect.any(Date),
      },
    ]);
    expect(audit[0]!.received_at.getTime()).toBeGreaterThan(before - 5000);
  });

  it('when an address is suppressed again after its entry expired, then it is a new entry with a new id that expires in turn', async () => {
    const accountId = await accountWithExpiry({ bounce: 30 });
    const [email] = uniqueEmails(1);
    const [first] = await suppressAged(accountId, [email!], 'bounce', 31);
    await runExpiry(database.db);

    const [again] = await addSuppressions(database.db, accountId, [
      { id: newId(), email: email!, origin: 'bounce', sourceId: null },
    ]);
    expect(again).toMatchObject({ created: true });
    expect(again!.id).not.toBe(first);
    expect(await listed(accountId)).toEqual([email]);

    await database.db.query({
      text: `UPDATE suppressions SET created_at = now() - interval '31 days' WHERE account_id = $1`,
      values: [accountId],
    });
    await runExpiry(database.db);
    expect((await expiryAudit(accountId)).map((row) => row.event_id).sort()).toEqual(
      [`expired-${first}`, `expired-${again!.id}`].sort(),
    );
  });

  it('when a webhook subscribes to suppression.removed, then each expired entry is in the outbox for it', async () => {
    const accountId = await accountWithExpiry({ manual: 1 });
    await createWebhook(database.db, {
      accountId,
      endpoint: 'http://127.0.0.1:9/x',
      events: ['suppression.removed'],
    });
    const ids = await suppressAged(accountId, uniqueEmails(3), 'manual', 2);

    await runExpiry(database.db);
    const { rows } = await database.db.query<{ suppression_id: string }>({
      text: `SELECT suppression_id FROM suppression_changes WHERE account_id = $1 AND type = 'suppression.removed'`,
      values: [accountId],
    });
    expect(rows.map((row) => row.suppression_id).sort()).toEqual([...ids].sort());
  });
});

describe('batches and runners', () => {
  it('when more than a batch has expired, then a run removes them batch after batch', async () => {
    const accountId = await accountWithExpiry({ bounce: 30 });
    await suppressAged(accountId, uniqueEmails(25), 'bounce', 40);

    expect(await runExpiry(database.db, { batchSize: 10 })).toEqual({ removed: 25 });
    expect(await listed(accountId)).toEqual([]);
    expect(await expiryAudit(accountId)).toHaveLength(25);
  });

  it('when a run reaches its bound of batches, then it stops and the next run goes on', async () => {
    const accountId = await accountWithExpiry({ bounce: 30 });
    await suppressAged(accountId, uniqueEmails(25), 'bounce', 40);

    expect(await runExpiry(database.db, { batchSize: 10, maxBatches: 2 })).toEqual({ removed: 20 });
    expect(await listed(accountId)).toHaveLength(5);
    expect(await runExpiry(database.db, { batchSize: 10, maxBatches: 2 })).toEqual({ removed: 5 });
  });

  it('when a run is stopped, then it ends after the batch in flight and the next run goes on', async () => {
    const accountId = await accountWithExpiry({ bounce: 30 });
    await suppressAged(accountId, uniqueEmails(5), 'bounce', 40);

    expect(await runExpiry(database.db, { signal: AbortSignal.abort() })).toEqual({ removed: 0 });
    expect(await listed(accountId)).toHaveLength(5);
    expect(await runExpiry(database.db)).toEqual({ removed: 5 });
  });

  it('when two runners sweep at once, then each entry is removed once and recorded once', async () => {
    const [bounces, complaints] = await Promise.all([
      accountWithExpiry({ bounce: 30 }),
      accountWithExpiry({ complaint: 30 }),
    ]);
    await suppressAged(bounces, uniqueEmails(150), 'bounce', 40);
    await suppressAged(complaints, uniqueEmails(150), 'complaint', 40);

    const [first, second] = await Promise.all([
      runExpiry(database.db, { batchSize: 20 }),
      runExpiry(database.db, { batchSize: 20 }),
    ]);
    expect(first.removed + second.removed).toBe(300);
    for (const accountId of [bounces, complaints]) {
      expect(await listed(accountId)).toEqual([]);
      const audit = await expiryAudit(accountId);
      expect(audit).toHaveLength(150);
      expect(new Set(audit.map((row) => row.suppression_id)).size).toBe(150);
    }
  });
});

describe('the scheduled sweep', () => {
  let maintenance: TestQueue;
  let worker: MaintenanceWorker;
  beforeAll(async () => {
    maintenance = await createTestQueue(MAINTENANCE_QUEUE);
    worker = startMaintenanceWorker(
      queueConfig(maintenance.prefix),
      { db: database.db, logger: createLogger('silent'), connection: maintenance.connection },
      { expiryEveryMs: 500 },
    );
    await worker.worker.waitUntilReady();
    await worker.scheduled;
  });
  afterAll(async () => {
    await worker?.close();
    // Obliterating the queue removes its scheduler and jobs: no key of this file is left in Redis.
    await maintenance?.cleanup();
  });

  it('when the worker has started, then one scheduler runs the sweep every interval, however often it is upserted', async () => {
    await scheduleExpiry(maintenance.queue, 500);
    // The sweep's, and the audit partitions' of src/events/audit-partitions.ts.
    expect(await maintenance.queue.getJobSchedulersCount()).toBe(2);
    expect(await maintenance.queue.getJobScheduler(EXPIRE_ENTRIES_JOB)).toMatchObject({
      name: EXPIRE_ENTRIES_JOB,
      every: 500,
    });
  });

  it('when an entry ages past its expiry, then the scheduled sweep removes it on its own', async () => {
    const accountId = await accountWithExpiry({ bounce: 30 });
    const [email] = uniqueEmails(1);
    await suppressAged(accountId, [email!], 'bounce', 31);

    await eventually(async () => (await listed(accountId)).length === 0, 10_000, 'the scheduled sweep');
    expect(await expiryAudit(accountId)).toHaveLength(1);
    // The sweep's transaction commits before its job is marked completed: the mark follows shortly.
    const sweptOne = async () =>
      (await maintenance.queue.getJobs(['completed'])).some(
        (job) => job.name === EXPIRE_ENTRIES_JOB && job.returnvalue.removed >= 1,
      );
    await eventually(sweptOne, 10_000, 'the sweep job marked completed');
  });

  it('when a mail message was received more than 30 days ago, then the sweep removes its record, and keeps a younger one', async () => {
    const digests = [randomBytes(32), randomBytes(32)];
    for (const [index, digest] of digests.entries()) {
      await database.db.query({
        text: `INSERT INTO mail_messages (digest, source, received_at, size, format, verified, records)
               VALUES ($1, 'smtp', now() - make_interval(days => $2), 100, 'rfc3464', false, '[]')`,
        values: [digest, index === 0 ? 31 : 29],
      });
    }

    const kept = async () =>
      (
        await database.db.query<{ digest: Buffer }>({
          text: 'SELECT digest FROM mail_messages WHERE digest = ANY($1)',
          values: [digests],
        })
      ).rows.map((row) => row.digest.toString('hex'));
    await eventually(async () => (await kept()).length === 1, 10_000, 'the scheduled sweep');
    expect(await kept()).toEqual([digests[1]!.toString('hex')]);
  });

  it('when an import is older than 30 days, then the sweep removes it with its jobs, and keeps a younger one', async () => {
    const { accountId } = await newAccount(database.db);
    const [old, young] = [newId(), newId()];
    for (const id of [old, young]) {
      await createImport(database.db, { id, accountId, origin: 'manual', scope: null, format: 'csv' });
      await recordImportJob(database.db, id, '1', 10);
    }
    await database.db.query({
      text: `UPDATE imports SET created_at = now() - interval '31 days' WHERE id = $1`,
      values: [old],
    });

    const kept = async () =>
      (
        await database.db.query<{ id: string }>({
          text: 'SELECT id FROM imports WHERE account_id = $1',
          values: [accountId],
        })
      ).rows.map((row) => row.id);
    await eventually(async () => (await kept()).length === 1, 10_000, 'the scheduled sweep');
    expect(await kept()).toEqual([young]);
    const { rows } = await database.db.query({ text: 'SELECT 1 FROM import_jobs WHERE import_id = $1', values: [old] });
    expect(rows).toEqual([]);
  });
});
