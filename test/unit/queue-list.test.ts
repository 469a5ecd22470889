import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  queueList,
  QueueListError,
  type InvalidLine,
  type ListOperation,
  type QueuedJob,
} from '../../src/lists/queue-list.js';
import { readAddresses } from '../../src/lists/read-addresses.js';
import type { AddBatchInput, RemoveBatchInput } from '../../src/batches/batch-schema.js';

/** Records the jobs instead of queueing them. */
function fakeProducer(failAfter = Infinity) {
  const jobs: { name: 'add' | 'remove'; data: AddBatchInput | RemoveBatchInput }[] = [];
  const record = (name: 'add' | 'remove', data: AddBatchInput | RemoveBatchInput): Promise<string> => {
    if (jobs.length >= failAfter) return Promise.reject(new Error('Redis did not answer'));
    jobs.push({ name, data });
    return Promise.resolve(String(jobs.length));
  };
  return {
    jobs,
    add: (data: AddBatchInput) => record('add', data),
    remove: (data: RemoveBatchInput) => record('remove', data),
  };
}

const ACCOUNT = '0190e0b0-0000-7000-8000-0000000000aa';
const ADD: ListOperation = { kind: 'add', accountId: ACCOUNT, origin: 'manual' };
const ID_1 = '0190E0B0-0000-7000-8000-000000000001';
const ID_2 = '0190e0b0-0000-7000-8000-000000000002';

describe('queueing a list', () => {
  it('when addresses repeat, then each job sends an address once, and a repeat in a later job is sent again', async () => {
    const producer = fakeProducer();
    const invalid: InvalidLine[] = [];
    const queued: QueuedJob[] = [];
    const text = ['a@x.io', 'B@X.io ', 'a@x.io', 'b@x.io', 'not-an-address', 'c@x.io', '', 'a@x.io', 'd@x.io'].join(
      '\n',
    );

    const entries = readAddresses(Readable.from([text]), { format: 'txt' });

    const summary = await queueList(
      entries,
      producer,
      { ...ADD, origin: 'bounce' },
      {
        chunkSize: 3,
        onInvalid: (problem) => invalid.push(problem),
        onJob: (job) => queued.push(job),
      },
    );

    expect(producer.jobs).toEqual([
      {
        name: 'add',
        data: { account_id: ACCOUNT, emails: ['a@x.io', 'b@x.io', 'c@x.io'], origin: 'bounce', source_id: null },
      },
      { name: 'add', data: { account_id: ACCOUNT, emails: ['a@x.io', 'd@x.io'], origin: 'bounce', source_id: null } },
    ]);
    expect(summary).toEqual({ lines: 9, invalid: 1, queued: 5, duplicates: 2, jobs: 2 });
    expect(invalid).toEqual([{ line: 5, value: 'not-an-address', reason: 'is not a valid email address' }]);
    expect(queued).toEqual([
      { id: '1', entries: 3 },
      { id: '2', entries: 2 },
    ]);
  });

  it('when a removal list mixes ids and addresses, then they go in separate jobs and a UUID is an id', async () => {
    const producer = fakeProducer();
    const invalid: InvalidLine[] = [];
    const text = [
      `"${ID_1}"`,
      '"a@x.io"',
      `"${ID_2}"`,
      '{"id":"not-a-uuid"}',
      '{"email":"b@x.io"}',
      `{"id":"${ID_1.toLowerCase()}"}`,
    ].join('\n');
    const entries = readAddresses(Readable.from([text]), { format: 'ndjson', ids: true });

    const summary = await queueList(
      entries,
      producer,
      { kind: 'remove', accountId: ACCOUNT },
      {
        onInvalid: (problem) => invalid.push(problem),
      },
    );

    expect(producer.jobs).toEqual([
      { name: 'remove', data: { account_id: ACCOUNT, emails: ['a@x.io', 'b@x.io'] } },
      { name: 'remove', data: { account_id: ACCOUNT, ids: [ID_1.toLowerCase(), ID_2] } },
    ]);
    expect(summary).toMatchObject({ queued: 4, duplicates: 1, invalid: 1, jobs: 2 });
    expect(invalid).toEqual([{ line: 4, value: 'not-a-uuid', reason: 'is not a suppression id (a UUID)' }]);
  });

  it('when an import list holds a UUID, then it is an invalid address', async () => {
    const producer = fakeProducer();
    const invalid: InvalidLine[] = [];
    await queueList(readAddresses(Readable.from([`${ID_2}\n`]), { format: 'txt' }), producer, ADD, {
      onInvalid: (problem) => invalid.push(problem),
    });
    expect(invalid).toEqual([{ line: 1, value: ID_2, reason: 'is not a valid email address' }]);
    expect(producer.jobs).toEqual([]);
  });

  it('when queueing fails part-way, then the error says how far it got', async () => {
    const producer = fakeProducer(1);
    const input = Readable.from(['a@x.io\nb@x.io\nc@x.io\nd@x.io\n']);

    const error = await queueList(readAddresses(input, { format: 'csv' }), producer, ADD, { chunkSize: 2 }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(QueueListError);
    expect((error as QueueListError).summary).toMatchObject({ queued: 2, jobs: 1, lines: 4 });
    expect((error as Error).message).toMatch(
      /^queueing stopped after 2 entries in 1 job \(4 lines read\): Redis did not answer\. /,
    );
  });
});
