import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addSuppressions, findSuppressionByEmail } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { createEventProducer } from '../../src/events/event-producer.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { eventJobId } from '../../src/events/job-id.js';
import { newAccount } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { eventsForEmail } from '../support/event-history.js';
import { closedPort } from '../support/unreachable.js';
import { startTestApp } from '../support/test-app.js';
import { onServer } from '../support/test-database.js';
import { useEventWorker } from '../support/test-event-worker.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { allSettled, eventually, settled } from '../support/test-queue.js';

const setup = useEventWorker({ batchDelayMs: 2 });

async function publishAndSettle(event: SuppressionEventInput) {
  const jobId = await setup.producer.publish(event);
  return settled(setup.events.queue, jobId);
}

describe('the rules', () => {
  it('when a complaint arrives, then the address is suppressed with origin complaint and the email id as source', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const event = complaintEvent(accountId, email);
    const { job, state } = await publishAndSettle(event);

    expect(state).toBe('completed');
    const entry = await findSuppressionByEmail(setup.database.db, accountId, email);
    expect(entry).toMatchObject({ origin: 'complaint', sourceId: event.source_id });
    expect(job.returnvalue).toEqual({ outcome: 'suppressed', suppression_id: entry!.id });
  });

  it('when a permanent bounce arrives, then the address is suppressed with origin bounce', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const event = bounceEvent(accountId, email);
    const { job } = await publishAndSettle(event);

    expect(job.returnvalue.outcome).toBe('suppressed');
    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({
      origin: 'bounce',
      sourceId: event.source_id,
    });
    const [recorded] = await eventsForEmail(setup.database.db, accountId, email);
    expect(recorded).toMatchObject({ eventId: event.event_id, type: 'bounce', outcome: 'suppressed' });
  });

  it.each([
    ['transient', 'mailbox_unavailable'],
    ['undetermined', 'unknown'],
  ] as const)(
    'when a %s bounce arrives, then it is recorded as %s and nothing is suppressed',
    async (type, category) => {
      const { accountId } = await newAccount(setup.database.db);
      const email = uniqueEmail();
      const { job, state } = await publishAndSettle(bounceEvent(accountId, email, type));
      expect(state).toBe('completed');
      expect(job.returnvalue).toEqual({ outcome: 'not_suppressed', suppression_id: null, category });
      expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toBeNull();
      expect(await eventsForEmail(setup.database.db, accountId, email)).toMatchObject([{ outcome: 'not_suppressed' }]);
    },
  );

  it("when the event's address has capitals and spaces, then the suppression is stored normalised", async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    await publishAndSettle(complaintEvent(accountId, `  ${email.toUpperCase()}  `));

    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).not.toBeNull();
  });

  it('when an address is already on the list, then it keeps its first origin and the event is still recorded', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const [manual] = await addSuppressions(setup.database.db, accountId, [
      { id: newId(), email, origin: 'manual', sourceId: null },
    ]);
    const { job } = await publishAndSettle(complaintEvent(accountId, email));

    expect(job.returnvalue).toEqual({ outcome: 'already_suppressed', suppression_id: manual!.id });
    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({
      id: manual!.id,
      origin: 'manual',
      sourceId: null,
    });
    expect(await eventsForEmail(setup.database.db, accountId, email)).toMatchObject([
      { type: 'complaint', outcome: 'already_suppressed' },
    ]);
  });

  it('when a bounce and then a complaint arrive for one address, then the first origin wins', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const first = bounceEvent(accountId, email);
    await publishAndSettle(first);
    const { job } = await publishAndSettle(complaintEvent(accountId, email));

    expect(job.returnvalue.outcome).toBe('already_suppressed');
    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({
      origin: 'bounce',
      sourceId: first.source_id,
    });
  });
});

describe('duplicate delivery', () => {
  it('when the same event is published twice, then it is one job and one record', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const event = complaintEvent(accountId, email);
    const firstId = await setup.producer.publish(event);
    const secondId = await setup.producer.publish(event);

    expect(secondId).toBe(firstId);
    expect(firstId).toBe(eventJobId(accountId, event.event_id));
    expect(firstId).not.toContain(':');
    await settled(setup.events.queue, firstId);
    expect(await eventsForEmail(setup.database.db, accountId, email)).toHaveLength(1);
  });

  it('when the same event arrives under another job id after its entry was removed, then nothing changes', async () => {
    const key = await newAccount(setup.database.db);
    const server = await startTestApp(setup.database.db);
    onTestFinished(() => server.close());
    const api = apiClient(server.url, key.token);
    const email = uniqueEmail();
    const event = bounceEvent(key.accountId, email);
    await publishAndSettle(event);

    expect((await api.delete(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);

    const again = await setup.events.queue.add('bounce', event, { jobId: `redelivered-${randomUUID()}` });
    const { job, state } = await settled(setup.events.queue, again.id!);

    expect(state).toBe('completed');
    expect(job.returnvalue).toEqual({ outcome: 'duplicate', suppression_id: null });
    expect((await api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
    const trail = await eventsForEmail(setup.database.db, key.accountId, email);
    expect(trail.map((entry) => [entry.type, entry.outcome])).toEqual([
      ['bounce', 'suppressed'],
      ['removal', 'removed'],
    ]);
    expect(trail[1]!.apiKeyId).toBe(key.keyId);
  });

  it('when copies of one event are processed side by side, then exactly one is applied', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const event = complaintEvent(accountId, email);
    const jobs = await setup.events.queue.addBulk(
      Array.from({ length: 5 }, () => ({ name: 'complaint', data: event, opts: { jobId: `copy-${randomUUID()}` } })),
    );
    const results = await allSettled(
      setup.events.queue,
      jobs.map((job) => job.id!),
    );
    const outcomes = results.map(({ job }) => job.returnvalue.outcome).sort();

    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'suppressed']);
    expect(await eventsForEmail(setup.database.db, accountId, email)).toHaveLength(1);
  });
});

describe('poison jobs', () => {
  it('when a job is invalid, then it fails at once with the reason and the next job still lands', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const poison = await setup.events.queue.add(
      'bounce',
      { account_id: accountId, event_id: 'broken', type: 'bounce', email: 'not an address' },
      { attempts: 5, backoff: { type: 'fixed', delay: 10 } },
    );
    const next = await setup.producer.publish(complaintEvent(accountId, email));
    const failed = await settled(setup.events.queue, poison.id!);

    expect(failed.state).toBe('failed');
    expect(failed.job.attemptsMade).toBe(1);
    expect(failed.job.failedReason).toMatch(/^invalid event: .*email is not a valid email address/);
    expect(failed.job.failedReason).toMatch(/source_id/);
    expect(failed.job.failedReason).toMatch(/bounce is required/);
    expect((await settled(setup.events.queue, next)).state).toBe('completed');
    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).not.toBeNull();
  });

  it('when the account does not exist, then the job fails at once saying so', async () => {
    const missing = randomUUID();
    const poison = await setup.events.queue.add('complaint', complaintEvent(missing, uniqueEmail()), { attempts: 5 });
    const { job, state } = await settled(setup.events.queue, poison.id!);

    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(`invalid event: account ${missing} does not exist`);
  });

  it('when the job name does not match the type, then it fails at once', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const poison = await setup.events.queue.add('bounce', complaintEvent(accountId, uniqueEmail()), { attempts: 5 });
    const { job, state } = await settled(setup.events.queue, poison.id!);

    expect(state).toBe('failed');
    expect(job.failedReason).toMatch(/does not match type/);
  });

  it('when the producer is given an invalid event, then it throws and enqueues nothing', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const valid = complaintEvent(accountId, uniqueEmail());
    const before = await setup.events.queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed');
    await expect(setup.producer.publishMany([valid, { ...valid, event_id: '' }])).rejects.toThrow(
      /event 1: invalid event: event_id/,
    );
    await expect(setup.producer.publish({ ...valid, type: 'bounce' })).rejects.toThrow(/bounce is required/);

    expect(await setup.events.queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed')).toBe(
      before,
    );
  });
});

describe('account isolation', () => {
  it("when an event arrives for one account, then another account's list is untouched", async () => {
    const { accountId: first } = await newAccount(setup.database.db);
    const { accountId: second } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    await publishAndSettle(complaintEvent(first, email));

    expect(await findSuppressionByEmail(setup.database.db, first, email)).not.toBeNull();
    expect(await findSuppressionByEmail(setup.database.db, second, email)).toBeNull();
    // The same upstream event id in another account is another event.
    const shared = complaintEvent(second, email);
    const { job } = await publishAndSettle({ ...shared, event_id: 'same-id' });
    const { job: other } = await publishAndSettle({ ...complaintEvent(first, email), event_id: 'same-id' });
    expect(job.returnvalue.outcome).toBe('suppressed');
    expect(other.returnvalue.outcome).toBe('already_suppressed');
  });
});

async function countRows(table: 'suppressions' | 'suppression_events', accountId: string): Promise<number> {
  const { rows } = await setup.database.db.query<{ count: string }>({
    text: `SELECT count(*) FROM ${table} WHERE account_id = $1`,
    values: [accountId],
  });
  return Number(rows[0]!.count);
}

describe('resilience', () => {
  it('when the database goes away in the middle of a stream, then every event lands once after it returns', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const emails = uniqueEmails(300);
    const events = emails.map((email) => complaintEvent(accountId, email));
    const { name } = setup.database;
    const firstHalf = await setup.producer.publishMany(events.slice(0, 150));
    await eventually(async () => (await countRows('suppressions', accountId)) > 0, 10_000, 'first rows');
    await onServer(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await onServer(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
    );
    const secondHalf = await setup.producer.publishMany(events.slice(150));
    // Back once an attempt has failed for want of it.
    await eventually(
      async () =>
        (await Promise.all(secondHalf.map((id) => setup.events.queue.getJob(id)))).some(
          (job) => (job?.attemptsMade ?? 0) > 0,
        ),
      20_000,
      'a failed attempt',
    );
    await onServer(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);

    const settledJobs = await allSettled(setup.events.queue, [...firstHalf, ...secondHalf], 60_000);

    expect(settledJobs.every(({ state }) => state === 'completed')).toBe(true);
    expect(settledJobs.some(({ job }) => job.attemptsMade > 1)).toBe(true);
    expect(await countRows('suppressions', accountId)).toBe(300);
    expect(await countRows('suppression_events', accountId)).toBe(300);
  }, 90_000);

  it('when the worker is closed while jobs are active, then it finishes them and the rest land once on restart', async () => {
    await setup.stop();
    const { accountId } = await newAccount(setup.database.db);
    const events = uniqueEmails(2000).map((email) => bounceEvent(accountId, email));
    const ids = await setup.producer.publishMany(events);
    setup.start({ concurrency: 50 });
    await eventually(async () => (await countRows('suppression_events', accountId)) >= 100, 20_000, 'first events');
    await setup.stop();

    expect(await setup.events.queue.getActiveCount()).toBe(0);
    const completed = (await Promise.all(ids.map((id) => setup.events.queue.getJob(id)))).filter(
      (job) => job?.finishedOn !== undefined,
    );
    // Every job that completed has its rows committed; nothing is half done.
    expect(await countRows('suppression_events', accountId)).toBe(completed.length);
    expect(completed.length).toBeLessThan(2000);

    setup.start({ concurrency: 50 });
    const final = await allSettled(setup.events.queue, ids, 60_000);
    expect(final.every(({ state }) => state === 'completed')).toBe(true);
    expect(await countRows('suppressions', accountId)).toBe(2000);
    expect(await countRows('suppression_events', accountId)).toBe(2000);
  }, 90_000);
});

describe('the producer that waits for replicas', () => {
  it('when Redis has no replica, then a publish that asks for one is taken on the master alone and applied', async () => {
    const waiting = createEventProducer({
      connection: setup.events.redisUrl,
      prefix: setup.events.prefix,
      replicas: 1,
    });
    onTestFinished(() => waiting.close());
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    const jobId = await waiting.publish(complaintEvent(accountId, email));

    await settled(setup.events.queue, jobId);
    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({ origin: 'complaint' });
  });
});

describe('the producer without Redis', () => {
  it('when Redis does not answer, then publish fails within its timeout instead of hanging', async () => {
    const offline = createEventProducer({
      connection: `redis://127.0.0.1:${await closedPort()}`,
      prefix: setup.events.prefix,
      connectTimeoutMs: 300,
    });
    onTestFinished(() => offline.close().catch(() => undefined));
    const { accountId } = await newAccount(setup.database.db);
    const startedAt = Date.now();

    // Whichever comes first, ioredis giving up its retries or the deadline, the call fails fast.
    await expect(offline.publish(complaintEvent(accountId, uniqueEmail()))).rejects.toThrow(/^Redis did not answer: /);

    expect(Date.now() - startedAt).toBeLessThan(5000);
  });
});
