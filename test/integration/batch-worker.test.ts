import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchProducer, type BatchProducer } from '../../src/batches/batch-producer.js';
import type { BatchResult } from '../../src/batches/batch-schema.js';
import { addSuppressions, findSuppressionByEmail, listSuppressions } from '../../src/db/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { createLogger } from '../../src/logger.js';
import { BATCHES_QUEUE } from '../../src/queues.js';
import { startBatchWorker, type BatchWorker } from '../../workers/batch-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { createAccountKey, uniqueEmails } from '../support/test-app.js';
import { createTestQueue, settled, type TestQueue } from '../support/test-queue.js';

let database: TestDatabase;
let queue: TestQueue;
let producer: BatchProducer;
let worker: BatchWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = await createTestQueue(BATCHES_QUEUE);
  producer = createBatchProducer({ connection: queue.redisUrl, prefix: queue.prefix });
  worker = startBatchWorker({
    db: database.db,
    logger: createLogger('silent'),
    connection: queue.connection,
    prefix: queue.prefix,
  });
});

afterAll(async () => {
  await worker?.close();
  await producer?.close();
  await queue?.cleanup();
  await database?.drop();
});

async function newAccountId(): Promise<string> {
  return (await createAccountKey(database.db)).accountId;
}

async function resultOf(jobId: string): Promise<BatchResult> {
  const { job, state } = await settled(queue.queue, jobId, 30_000);
  expect(state).toBe('completed');
  return job.returnvalue as BatchResult;
}

describe('add jobs', () => {
  it('when a job mixes new, present, repeated and invalid addresses, then each is counted and only the new ones are added', async () => {
    const accountId = await newAccountId();
    const [present, fresh1, fresh2] = uniqueEmails(3);
    await addSuppressions(database.db, accountId, [
      { id: newId(), email: present!, origin: 'complaint', sourceId: randomUUID() },
    ]);
    const jobId = await producer.add({
      account_id: accountId,
      emails: [fresh1!, present!, ` ${fresh1!.toUpperCase()} `, 'not-an-address', fresh2!, ''],
    });
    expect(await resultOf(jobId)).toEqual({
      total: 6,
      added: 2,
      already_present: 1,
      removed: 0,
      not_found: 0,
      duplicates: 1,
      invalid: 2,
      invalid_entries: [
        { index: 3, value: 'not-an-address', reason: 'is not a valid email address' },
        { index: 5, value: '', reason: 'is empty' },
      ],
    });
    expect(await findSuppressionByEmail(database.db, accountId, fresh1!)).toMatchObject({
      origin: 'manual',
      sourceId: null,
    });
    expect(await findSuppressionByEmail(database.db, accountId, present!)).toMatchObject({ origin: 'complaint' });
  });

  it('when entries come from another provider as bounces, then they are stored with origin bounce and no source', async () => {
    const accountId = await newAccountId();
    const emails = uniqueEmails(3);
    const result = await resultOf(await producer.add({ account_id: accountId, emails, origin: 'bounce' }));
    expect(result.added).toBe(3);
    const page = await listSuppressions(database.db, { accountId, limit: 10 });
    expect(page.entries.map((entry) => [entry.origin, entry.sourceId])).toEqual([
      ['bounce', null],
      ['bounce', null],
      ['bounce', null],
    ]);
  });

  it('when a job holds many addresses, then they are written in several statements with progress reported', async () => {
    const accountId = await newAccountId();
    const emails = uniqueEmails(5000);
    const jobId = await producer.add({ account_id: accountId, emails });
    const result = await resultOf(jobId);
    expect(result).toMatchObject({ total: 5000, added: 5000, invalid: 0 });
    const job = await queue.queue.getJob(jobId);
    expect(job?.progress).toEqual({ processed: 5000, total: 5000 });
  });

  it('when the same job runs again, then nothing is added twice', async () => {
    const accountId = await newAccountId();
    const emails = uniqueEmails(20);
    await resultOf(await producer.add({ account_id: accountId, emails }));
    const again = await resultOf(await producer.add({ account_id: accountId, emails }));
    expect(again).toMatchObject({ added: 0, already_present: 20 });
  });
});

describe('remove jobs', () => {
  it('when removing by emails, then matches are removed and the rest are counted as not found', async () => {
    const accountId = await newAccountId();
    const [kept, gone1, gone2, missing] = uniqueEmails(4);
    await resultOf(await producer.add({ account_id: accountId, emails: [kept!, gone1!, gone2!] }));
    const result = await resultOf(
      await producer.remove({ account_id: accountId, emails: [gone1!, missing!, gone2!.toUpperCase(), 'bad'] }),
    );
    expect(result).toMatchObject({ total: 4, removed: 2, not_found: 1, invalid: 1, duplicates: 0 });
    expect(await findSuppressionByEmail(database.db, accountId, kept!)).not.toBeNull();
    expect(await findSuppressionByEmail(database.db, accountId, gone1!)).toBeNull();
  });

  it('when removing by ids, then ids of other accounts and malformed ids remove nothing', async () => {
    const [accountId, otherId] = [await newAccountId(), await newAccountId()];
    const [mine] = await addSuppressions(database.db, accountId, [
      { id: newId(), email: uniqueEmails(1)[0]!, origin: 'manual', sourceId: null },
    ]);
    const [theirs] = await addSuppressions(database.db, otherId, [
      { id: newId(), email: uniqueEmails(1)[0]!, origin: 'manual', sourceId: null },
    ]);
    const result = await resultOf(
      await producer.remove({ account_id: accountId, ids: [mine!.id.toUpperCase(), theirs!.id, 'nope', mine!.id] }),
    );
    expect(result).toMatchObject({ removed: 1, not_found: 1, invalid: 1, duplicates: 1 });
    expect(result.invalid_entries).toEqual([{ index: 2, value: 'nope', reason: 'is not a suppression id (a UUID)' }]);
    expect(await listSuppressions(database.db, { accountId: otherId, limit: 10 })).toMatchObject({
      entries: [{ id: theirs!.id }],
    });
  });
});

describe('bad jobs', () => {
  it('when the account does not exist, then the job fails at once saying so', async () => {
    const missing = randomUUID();
    const jobId = await producer.add({ account_id: missing, emails: uniqueEmails(1) });
    const { job, state } = await settled(queue.queue, jobId);
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(`invalid batch: account ${missing} does not exist`);
  });

  it('when a job arrives malformed from another producer, then it fails at once with the reason', async () => {
    const accountId = await newAccountId();
    const raw = await queue.queue.add('add', { account_id: accountId, emails: [], origin: 'spam' }, { attempts: 5 });
    const { job, state } = await settled(queue.queue, raw.id!);
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(
      /^invalid batch: emails must not be empty; origin must be one of bounce, complaint, manual/,
    );
    const named = await queue.queue.add('purge', { account_id: accountId, emails: ['a@example.com'] }, { attempts: 5 });
    expect((await settled(queue.queue, named.id!)).job.failedReason).toMatch(/unknown job name "purge"/);
  });

  it('when the producer is given a job that is not valid, then it throws and enqueues nothing', async () => {
    const accountId = await newAccountId();
    await expect(
      producer.add({ account_id: accountId, emails: uniqueEmails(1), source_id: randomUUID() }),
    ).rejects.toThrow(/source_id must be null when origin is manual/);
    await expect(
      producer.remove({ account_id: accountId, emails: uniqueEmails(1), ids: [randomUUID()] }),
    ).rejects.toThrow(/give either emails or ids/);
    await expect(
      producer.add({ account_id: accountId, emails: Array.from({ length: 10_001 }, () => 'a@example.com') }),
    ).rejects.toThrow(/at most 10000 entries/);
  });
});
