import { randomUUID } from 'node:crypto';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFailedEventsJson, formatFailedEventsTable, listFailedEvents } from '../../cli/events/failed-events.js';
import {
  describeInvalidLine,
  describePublishSummary,
  publishEvents,
  type InvalidLine,
  type PublishOptions,
} from '../../cli/events/publish-events.js';
import { retryAllFailedEvents, retryFailedEvents } from '../../cli/events/retry-events.js';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { eventJobId } from '../../src/events/job-id.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { streamOf } from '../support/chunked-stream.js';
import { ISO_MS } from '../support/formats.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { sleep } from '../support/sleep.js';
import { createTestQueue, settled, type TestQueue } from '../support/test-queue.js';

// Publishing and failing jobs each get a queue of their own, so a worker that fails jobs never
// takes the published ones.
let published: TestQueue;
let failing: TestQueue;
let producer: EventProducer;

beforeAll(async () => {
  [published, failing] = await Promise.all([createTestQueue(EVENTS_QUEUE), createTestQueue(EVENTS_QUEUE)]);
  producer = createEventProducer({ connection: published.redisUrl, prefix: published.prefix });
});

afterAll(async () => {
  await producer?.close();
  await Promise.all([published?.cleanup(), failing?.cleanup()]);
});

function event(overrides: Partial<SuppressionEventInput> = {}): SuppressionEventInput {
  return {
    account_id: randomUUID(),
    event_id: `evt-${randomUUID()}`,
    type: 'complaint',
    email: `user.${randomUUID().slice(0, 8)}@example.com`,
    source_id: randomUUID(),
    occurred_at: '2024-05-01T10:00:00.000Z',
    complaint: { feedback_type: 'abuse' },
    ...overrides,
  };
}

function ndjson(lines: readonly (string | object)[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

async function publish(text: string, options: PublishOptions = {}) {
  const invalid: InvalidLine[] = [];
  const summary = await publishEvents(streamOf(text), producer, {
    ...options,
    onInvalid: (problem) => invalid.push(problem),
  });
  return { summary, invalid };
}

describe('events publish', () => {
  const account = randomUUID();
  const complaint = event({ account_id: account, email: ' Jane.Doe@Example.COM ' });
  const bounce = event({
    account_id: account,
    event_id: 'msg:0001/bounce',
    type: 'bounce',
    bounce: { type: 'permanent', sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
  });
  const transient = {
    ...event({ account_id: account, type: 'bounce', bounce: { type: 'transient' } }),
    extra: 'ignored',
  };
  const file = ndjson([
    complaint, //                                                     1
    '{"account_id": "not closed"', //                                 2 malformed JSON
    bounce, //                                                        3
    '', //                                                            4 blank
    { ...event({ account_id: account, type: 'bounce', email: 'not-an-address' }), complaint: undefined }, // 5 bad email, no bounce
    '   \t', //                                                       6 blank
    '42', //                                                          7 JSON, not an event
    `${JSON.stringify(transient)}\r`, //                              8 CRLF line end
  ]);

  it('when NDJSON mixes valid, malformed, invalid and blank lines, then the valid events are queued and each bad line is reported by number', async () => {
    const { summary, invalid } = await publish(file, { chunkSize: 2 });

    expect(summary).toEqual({ lines: 8, queued: 3, invalid: 3, blank: 2 });
    expect(invalid.map((problem) => problem.line)).toEqual([2, 5, 7]);
    expect(invalid[0]!.reason).toMatch(/^malformed JSON: /);
    expect(invalid[1]!.reason).toMatch(/^invalid event: email .+; bounce is required when type is bounce$/);
    expect(invalid[2]!.reason).toMatch(/^invalid event: /);
    expect(describePublishSummary(summary)).toBe(
      'Queued 3 events from 8 lines; 3 invalid lines not queued; 2 blank lines skipped.',
    );
    expect(describeInvalidLine(invalid[0]!)).toMatch(/^line 2: malformed JSON: /);

    const jobs = await Promise.all(
      [complaint, bounce, transient].map((sent) => published.queue.getJob(eventJobId(sent.account_id, sent.event_id))),
    );
    expect(jobs.map((job) => job?.name)).toEqual(['complaint', 'bounce', 'bounce']);
    // The job id carries the event id base64url-encoded, so a ':' in it is fine.
    expect(jobs[1]!.id).toBe(`${account}.${Buffer.from('msg:0001/bounce').toString('base64url')}`);
    expect(jobs[0]!.data).toMatchObject({
      account_id: account,
      event_id: complaint.event_id,
      email: 'jane.doe@example.com',
    });
    expect(jobs[1]!.data).toMatchObject({ bounce: { type: 'permanent', status: '5.1.1' } });
    expect(jobs[2]!.data).not.toHaveProperty('extra');
    expect(await Promise.all(jobs.map((job) => job!.getState()))).toEqual(['waiting', 'waiting', 'waiting']);
  });

  it('when the same file is published again, then no new jobs are made', async () => {
    const before = await published.queue.getJobCounts();
    const jobId = eventJobId(complaint.account_id, complaint.event_id);
    const firstTimestamp = (await published.queue.getJob(jobId))!.timestamp;

    const { summary, invalid } = await publish(file);

    expect(summary.queued).toBe(3);
    expect(invalid.map((problem) => problem.line)).toEqual([2, 5, 7]);
    expect(await published.queue.getJobCounts()).toEqual(before);
    expect((await published.queue.getJob(jobId))!.timestamp).toBe(firstTimestamp);
  });

  it('when there are more events than a chunk, then every chunk is queued', async () => {
    const events = Array.from({ length: 25 }, () => event());
    const { summary, invalid } = await publish(ndjson(events), { chunkSize: 10 });

    expect(summary).toEqual({ lines: 25, queued: 25, invalid: 0, blank: 0 });
    expect(invalid).toEqual([]);
    const jobs = await Promise.all(
      events.map((sent) => published.queue.getJob(eventJobId(sent.account_id, sent.event_id))),
    );
    expect(jobs.every((job) => job !== undefined)).toBe(true);
  });

  it('when the CLI reads NDJSON on stdin, then it queues the valid lines, reports the bad one and exits 1', async () => {
    const first = event();
    const second = event({ type: 'bounce', bounce: { type: 'undetermined' } });
    const run = await runEventsCli(['events', 'publish', '-'], published.prefix, ndjson([first, '{oops', second]));

    expect(run.stdout).toBe('Queued 2 events from 3 lines; 1 invalid line not queued.\n');
    expect(run.stderr).toMatch(/^line 2: malformed JSON: .+$/m);
    expect(run.code).toBe(1);
    for (const sent of [first, second]) {
      const job = await published.queue.getJob(eventJobId(sent.account_id, sent.event_id));
      expect(job?.name).toBe(sent.type);
    }
  });
});

/** The real CLI on a test prefix. */
function runEventsCli(args: string[], prefix: string, stdin = ''): Promise<CliRun> {
  return runCli(args, { REDIS_URL: published.redisUrl, QUEUE_PREFIX: prefix }, stdin);
}

/** Adds the events and lets a worker fail each of them for good with `reason <job id>`. */
async function failEvents(events: readonly SuppressionEventInput[], reason: string): Promise<Job[]> {
  const worker = new Worker(
    EVENTS_QUEUE,
    (job) => {
      throw new UnrecoverableError(`${reason} ${job.id}`);
    },
    { connection: failing.connection, prefix: failing.prefix },
  );
  try {
    const ids: string[] = [];
    for (const sent of events) {
      const job = await failing.queue.add(sent.type, sent, {
        jobId: eventJobId(sent.account_id, sent.event_id),
        attempts: 15,
      });
      ids.push(job.id!);
    }
    const jobs: Job[] = [];
    for (const id of ids) {
      const { job, state } = await settled(failing.queue, id);
      expect(state).toBe('failed');
      jobs.push(job);
    }
    return jobs;
  } finally {
    await worker.close();
  }
}

describe('events failed and events retry', () => {
  it('when no job has failed, then the list is empty and says so', async () => {
    const page = await listFailedEvents(published.queue, 20);
    expect(page).toEqual({ events: [], total: 0 });
    expect(formatFailedEventsTable(page)).toBe('No failed events.\n');
    expect(formatFailedEventsJson(page)).toBe('');
  });

  it('when jobs have failed, then they are listed newest first with id, name, attempts, time and reason', async () => {
    const [older] = await failEvents([event()], 'invalid event: account does not exist');
    await sleep(5);
    const [newer] = await failEvents(
      [event({ type: 'bounce', bounce: { type: 'permanent' } })],
      'invalid event: account does not exist',
    );

    const page = await listFailedEvents(failing.queue, 20);
    const ours = page.events.filter((failed) => failed.id === older!.id || failed.id === newer!.id);
    expect(ours.map((failed) => failed.id)).toEqual([newer!.id, older!.id]);
    expect(ours[0]).toEqual({
      id: newer!.id,
      name: 'bounce',
      attemptsMade: 1,
      failedAt: expect.stringMatching(ISO_MS),
      failedReason: `invalid event: account does not exist ${newer!.id}`,
      data: newer!.data,
    });
    expect(page.total).toBe(page.events.length);

    const one = await listFailedEvents(failing.queue, 1);
    expect(one.events.map((failed) => failed.id)).toEqual([page.events[0]!.id]);
    expect(one.total).toBe(page.total);

    const table = formatFailedEventsTable(one);
    expect(table.split('\n')[0]).toMatch(/^1 of \d+ failed events, newest first \(--limit shows more\)\.$/);
    expect(table.split('\n')[1]).toMatch(/^JOB ID +NAME +ATTEMPTS +FAILED AT +REASON$/);
    expect(table).toContain(`invalid event: account does not exist ${one.events[0]!.id}`);
    const json = formatFailedEventsJson(one)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(json).toEqual([
      {
        id: one.events[0]!.id,
        name: one.events[0]!.name,
        attempts_made: 1,
        failed_at: one.events[0]!.failedAt,
        failed_reason: one.events[0]!.failedReason,
        data: one.events[0]!.data,
      },
    ]);
  });

  it('when a failed job is retried by id, then it is back in waiting; unknown and not-failed ids are reported', async () => {
    const [failed] = await failEvents([event()], 'boom');
    const unknown = `${randomUUID()}.bm9wZQ`;

    const result = await retryFailedEvents(failing.queue, [failed!.id!, unknown, failed!.id!]);

    expect(result).toEqual({ retried: [failed!.id], notFound: [unknown], notFailed: [] });
    const job = await failing.queue.getJob(failed!.id!);
    expect(await job!.getState()).toBe('waiting');
    expect(job!.failedReason ?? null).toBeNull();

    const again = await retryFailedEvents(failing.queue, [failed!.id!]);
    expect(again).toEqual({ retried: [], notFound: [], notFailed: [{ id: failed!.id, state: 'waiting' }] });
    await job!.remove();
  });

  it('when every failed job is retried, then all of them are back in waiting, a page at a time', async () => {
    const jobs = await failEvents([event(), event(), event(), event(), event()], 'boom');
    const failedBefore = await failing.queue.getFailedCount();

    const progress: number[] = [];
    const result = await retryAllFailedEvents(failing.queue, {
      pageSize: 2,
      onProgress: (retried) => progress.push(retried),
    });

    expect(result).toEqual({ retried: failedBefore, remaining: 0 });
    expect(progress.at(-1)).toBe(failedBefore);
    expect(await failing.queue.getFailedCount()).toBe(0);
    expect(await Promise.all(jobs.map(async (job) => (await failing.queue.getJob(job.id!))!.getState()))).toEqual(
      jobs.map(() => 'waiting'),
    );
    expect(await retryAllFailedEvents(failing.queue)).toEqual({ retried: 0, remaining: 0 });
    await failing.queue.drain();
  });

  it('when retried jobs fail again at once while every job is retried, then each is retried once and the walk ends', async () => {
    const jobs = await failEvents([event(), event(), event()], 'boom');
    await sleep(5);
    const worker = new Worker(
      EVENTS_QUEUE,
      () => {
        throw new UnrecoverableError('still broken');
      },
      { connection: failing.connection, prefix: failing.prefix },
    );
    try {
      const result = await retryAllFailedEvents(failing.queue, { pageSize: 1 });
      expect(result.retried).toBe(jobs.length);
      for (const job of jobs) {
        const { job: after, state } = await settled(failing.queue, job.id!);
        expect(state).toBe('failed');
        expect(after.failedReason).toBe('still broken');
        expect(after.attemptsMade).toBe(2);
      }
    } finally {
      await worker.close();
    }
  });

  it('when the CLI lists failed events as JSON, then it prints one object per line and exits 0', async () => {
    const run = await runEventsCli(['events', 'failed', '--json', '--limit', '2'], failing.prefix);

    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      id: expect.any(String),
      name: 'complaint',
      attempts_made: 2,
      failed_at: expect.stringMatching(ISO_MS),
      failed_reason: 'still broken',
      data: expect.objectContaining({ type: 'complaint' }),
    });
  });
});
