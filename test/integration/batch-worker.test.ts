import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/batches/batch-schema.js';
import {
  addSuppressions,
  findSuppressionByEmail,
  listSuppressions,
} from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useBatchWorker } from '../support/test-batch-worker.js';
import { settled } from '../support/test-queue.js';

const setup = useBatchWorker();

async function resultOf(jobId: string): Promise<BatchResult> {
  const { job, state } = await settled(setup.batches.queue, jobId, 30_000);
  expect(state).toBe('completed');
  return job.returnvalue as BatchResult;
}

describe('add jobs', () => {
  it('when a job mixes new, present, repeated and invalid addresses, then each is counted and only the new ones are added', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const [present, fresh1, fresh2] = uniqueEmails(3);
    await addSuppressions(setup.database.db, accountId, [
      { id: newId(), email: present!, origin: 'complaint', sourceId: randomUUID() },
    ]);
    const jobId = await setup.producer.add({
      account_id: accountId,
      emails: [fresh1!, present!, ` ${fresh1!.toUpperCase()} `, 'not-an-address', fresh2!, ''],
    });

    expect(await resultOf(jobId)).toEqual({
      total: 6,
      added: 2,
      already_present: 1,
      removed: 0,
      not_found: 0,
      allowlisted: 0,
      protected: 0,
      protected_entries: [],
      duplicates: 1,
      invalid: 2,
      invalid_entries: [
        { index: 3, value: 'not-an-address', reason: 'is not a valid email address' },
        { index: 5, value: '', reason: 'is empty' },
      ],
    });
    expect(await findSuppressionByEmail(setup.database.db, accountId, fresh1!)).toMatchObject({
      origin: 'manual',
      sourceId: null,
    });
    expect(await findSuppressionByEmail(setup.database.db, accountId, present!)).toMatchObject({ origin: 'complaint' });
  });

  it('when entries come from another provider as bounces, then they are stored with origin bounce and no source', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const emails = uniqueEmails(3);
    const result = await resultOf(await setup.producer.add({ account_id: accountId, emails, origin: 'bounce' }));

    expect(result.added).toBe(3);
    const page = await listSuppressions(setup.database.db, { accountId, limit: 10 });
    expect(page.entries.map((entry) => [entry.origin, entry.sourceId])).toEqual([
      ['bounce', null],
      ['bounce', null],
      ['bounce', null],
    ]);
  });

  it('when a job holds many addresses, then they are written in several statements with progress reported', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const emails = uniqueEmails(5000);
    const jobId = await setup.producer.add({ account_id: accountId, emails });
    const result = await resultOf(jobId);

    expect(result).toMatchObject({ total: 5000, added: 5000, invalid: 0 });
    const job = await setup.batches.queue.getJob(jobId);
    expect(job?.progress).toEqual({ processed: 5000, total: 5000 });
  });

  it('when the same job runs again, then nothing is added twice', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const emails = uniqueEmails(20);
    await resultOf(await setup.producer.add({ account_id: accountId, emails }));
    const again = await resultOf(await setup.producer.add({ account_id: accountId, emails }));

    expect(again).toMatchObject({ added: 0, already_present: 20 });
  });
});

describe('remove jobs', () => {
  it('when removing by emails, then matches are removed and the rest are counted as not found', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const [kept, gone1, gone2, missing] = uniqueEmails(4);
    await resultOf(await setup.producer.add({ account_id: accountId, emails: [kept!, gone1!, gone2!] }));
    const result = await resultOf(
      await setup.producer.remove({ account_id: accountId, emails: [gone1!, missing!, gone2!.toUpperCase(), 'bad'] }),
    );

    expect(result).toMatchObject({ total: 4, removed: 2, not_found: 1, invalid: 1, duplicates: 0 });
    expect(await findSuppressionByEmail(setup.database.db, accountId, kept!)).not.toBeNull();
    expect(await findSuppressionByEmail(setup.database.db, accountId, gone1!)).toBeNull();
  });

  it('when removing by ids, then ids of other accounts and malformed ids remove nothing', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const { accountId: otherId } = await newAccount(setup.database.db);
    const [mine] = await addSuppressions(setup.database.db, accountId, [
      { id: newId(), email: uniqueEmail(), origin: 'manual', sourceId: null },
    ]);
    const [theirs] = await addSuppressions(setup.database.db, otherId, [
      { id: newId(), email: uniqueEmail(), origin: 'manual', sourceId: null },
    ]);
    const result = await resultOf(
      await setup.producer.remove({
        account_id: accountId,
        ids: [mine!.id.toUpperCase(), theirs!.id, 'nope', mine!.id],
      }),
    );

    expect(result).toMatchObject({ removed: 1, not_found: 1, invalid: 1, duplicates: 1 });
    expect(result.invalid_entries).toEqual([{ index: 2, value: 'nope', reason: 'is not a suppression id (a UUID)' }]);
    expect(await listSuppressions(setup.database.db, { accountId: otherId, limit: 10 })).toMatchObject({
      entries: [{ id: theirs!.id }],
    });
  });

  it('when a job reaches complaint entries without force, then they are kept, counted and named, and the rest removed', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const [complained, manual, absent] = uniqueEmails(3);
    const [entry] = await addSuppressions(setup.database.db, accountId, [
      { id: newId(), email: complained!, origin: 'complaint', sourceId: null },
      { id: newId(), email: manual!, origin: 'manual', sourceId: null },
    ]);
    const result = await resultOf(
      await setup.producer.remove({ account_id: accountId, emails: [complained!, manual!, absent!] }),
    );

    expect(result).toMatchObject({ removed: 1, not_found: 1, protected: 1 });
    expect(result.protected_entries).toEqual([{ id: entry!.id, email: complained }]);
    expect(await findSuppressionByEmail(setup.database.db, accountId, complained!)).not.toBeNull();
    expect(await findSuppressionByEmail(setup.database.db, accountId, manual!)).toBeNull();
  });

  it('when a job says force with a reason, then complaint entries are removed too', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const [complained] = uniqueEmails(1);
    await addSuppressions(setup.database.db, accountId, [
      { id: newId(), email: complained!, origin: 'complaint', sourceId: null },
    ]);
    const result = await resultOf(
      await setup.producer.remove({ account_id: accountId, emails: [complained!], force: true, reason: 'test inbox' }),
    );

    expect(result).toMatchObject({ removed: 1, protected: 0 });
    expect(await findSuppressionByEmail(setup.database.db, accountId, complained!)).toBeNull();
  });

  it('when a job says force without a reason, then the producer refuses it and enqueues nothing', async () => {
    const { accountId } = await newAccount(setup.database.db);
    await expect(
      setup.producer.remove({ account_id: accountId, emails: [uniqueEmail()], force: true }),
    ).rejects.toThrow('reason is required with force');
  });
});

describe('bad jobs', () => {
  it('when the account does not exist, then the job fails at once saying so', async () => {
    const missing = randomUUID();
    const jobId = await setup.producer.add({ account_id: missing, emails: [uniqueEmail()] });
    const { job, state } = await settled(setup.batches.queue, jobId);

    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(`invalid batch: account ${missing} does not exist`);
  });

  it('when a job arrives malformed from another producer, then it fails at once with the reason', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const raw = await setup.batches.queue.add(
      'add',
      { account_id: accountId, emails: [], origin: 'spam' },
      { attempts: 5 },
    );
    const { job, state } = await settled(setup.batches.queue, raw.id!);

    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(
      /^invalid batch: emails must not be empty; origin must be one of bounce, complaint, manual/,
    );
    const named = await setup.batches.queue.add(
      'purge',
      { account_id: accountId, emails: ['a@example.com'] },
      { attempts: 5 },
    );
    expect((await settled(setup.batches.queue, named.id!)).job.failedReason).toMatch(/unknown job name "purge"/);
  });

  it('when the producer is given a job that is not valid, then it throws and enqueues nothing', async () => {
    const { accountId } = await newAccount(setup.database.db);
    await expect(
      setup.producer.add({ account_id: accountId, emails: [uniqueEmail()], source_id: randomUUID() }),
    ).rejects.toThrow(/source_id must be null when origin is manual/);
    await expect(
      setup.producer.remove({ account_id: accountId, emails: [uniqueEmail()], ids: [randomUUID()] }),
    ).rejects.toThrow(/give either emails or ids/);
    await expect(
      setup.producer.add({ account_id: accountId, emails: Array.from({ length: 10_001 }, () => 'a@example.com') }),
    ).rejects.toThrow(/at most 10000 entries/);
  });
});
