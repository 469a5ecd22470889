import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { runReclassification } from '../../src/bounces/reclassify.js';
import { listReclassificationEntries } from '../../src/bounces/reclassification-entries.js';
import { createReclassification, findReclassification } from '../../src/bounces/reclassification-repository.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { newId } from '../../src/domain/ids.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { eventually } from '../support/test-queue.js';
import { useMaintenanceWorkerBeside } from '../support/test-maintenance-worker.js';

const app = useTestApp({ queues: true });
useMaintenanceWorkerBeside(app);

const SPAMHAUS = '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org';
const UNKNOWN_USER = '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown';
const MAILBOX_FULL = '452 4.2.2 Mailbox full';

/**
 * An entry of origin `bounce` with one bounce record, written as the event path wrote it before
 * bounces were classified: suppressed on the provider's label `permanent`, no category.
 */
async function legacyBounceEntry(accountId: string, email: string, diagnostic: string, hoursAgo = 1): Promise<string> {
  const [entry] = await addSuppressions(app.database.db, accountId, [
    { id: newId(), email, origin: 'bounce', sourceId: randomUUID() },
  ]);
  await legacyBounce(accountId, email, diagnostic, hoursAgo, entry!.id, 'suppressed');
  return entry!.id;
}

async function legacyBounce(
  accountId: string,
  email: string,
  diagnostic: string,
  hoursAgo: number,
  suppressionId: string | null,
  outcome: string,
): Promise<void> {
  await app.database.db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, source_id, bounce_type, bounce_diagnostic,
             suppression_id, outcome, occurred_at, received_at)
           VALUES ($1, $2, 'bounce', $3, $4, 'permanent', $5, $6, $7, now() - $8 * interval '1 hour', now() - $8 * interval '1 hour')`,
    values: [accountId, `evt-${randomUUID()}`, email, randomUUID(), diagnostic, suppressionId, outcome, hoursAgo],
  });
}

async function settledRun(api: ApiClient, id: string) {
  let last: { status: number; body: any } = { status: 0, body: null };
  await eventually(
    async () => {
      last = await api.get(`/bounces/reclassifications/${id}`);
      return last.body?.status === 'completed' || last.body?.status === 'failed';
    },
    20_000,
    'the reclassification',
  );
  return last.body;
}

async function listed(accountId: string): Promise<string[]> {
  const { rows } = await app.database.db.query<{ email: string }>({
    text: 'SELECT email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows.map((row) => row.email);
}

/** Runs a reclassification of the account in this process, as the worker would. */
async function runHere(accountId: string, dryRun = false) {
  const run = await createReclassification(app.database.db, {
    id: newId(),
    accountId,
    dryRun,
    classifierVersion: CLASSIFIER_VERSION,
  });
  return {
    id: run.id,
    done: runReclassification(app.database.db, run.id).then(() =>
      findReclassification(app.database.db, accountId, run.id),
    ),
  };
}

describe('POST /bounces/reclassifications', () => {
  it('when a dry run and then a real run go over an account after a block-listing, then only the entry no evidence supports is lifted, announced and audited', async () => {
    const { api, accountId } = await newApiAccount(app);
    await createWebhook(app.database.db, {
      accountId,
      endpoint: 'http://127.0.0.1:9/x',
      events: ['suppression.removed'],
    });
    const blocked = uniqueEmail();
    const dead = uniqueEmail();
    const complained = uniqueEmail();
    const manual = uniqueEmail();
    const imported = uniqueEmail();
    // Suppressed before the classifier on the label `permanent`: a block list's refusal of the sender.
    const blockedId = await legacyBounceEntry(accountId, blocked, SPAMHAUS);
    // Through today's event path: a user unknown, and a complaint.
    await recordEventBatch(app.database.db, [
      parseSuppressionEvent(bounceEvent(accountId, dead, 'permanent')),
      parseSuppressionEvent(complaintEvent(accountId, complained)),
    ]);
    await addSuppressions(app.database.db, accountId, [
      { id: newId(), email: manual, origin: 'manual', sourceId: null },
      { id: newId(), email: imported, origin: 'bounce', sourceId: null },
    ]);
    // A block-list bounce recorded after a complaint: the complaint still supports the entry.
    const both = uniqueEmail();
    await recordEventBatch(app.database.db, [parseSuppressionEvent(complaintEvent(accountId, both))]);
    await legacyBounce(accountId, both, SPAMHAUS, 0, null, 'already_suppressed');
    const before = await listed(accountId);
    expect(before).toHaveLength(6);

    const dry = await api.post('/bounces/reclassifications', { dry_run: true });
    expect(dry.status).toBe(202);
    expect(dry.body).toMatchObject({
      object: 'bounce_reclassification',
      status: 'queued',
      dry_run: true,
      classifier_version: CLASSIFIER_VERSION,
      lifted: 0,
      error: null,
      started_at: null,
      finished_at: null,
    });
    const dryRun = await settledRun(api, dry.body.id);
    expect(dryRun).toMatchObject({
      status: 'completed',
      // The bounce entries: block-listed, unknown user, imported.
      entries_total: 3,
      entries_examined: 3,
      entries_without_evidence: 1,
      records_examined: 2,
      lifted: 1,
      lifted_by_category: { sender_blocked: 1 },
      records_by_category: { sender_blocked: 1, invalid_address: 1 },
      error: null,
    });
    expect(dryRun.finished_at).not.toBeNull();
    expect(await listed(accountId)).toEqual(before);
    // The dry run lists what it would lift, with the decision on the latest bounce and its evidence.
    const review = await api.get(`/bounces/reclassifications/${dry.body.id}/entries`);
    expect(review.status).toBe(200);
    expect(review.body).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          object: 'bounce_reclassification_entry',
          id: blockedId,
          email: blocked,
          category: 'sender_blocked',
          reason: 'blocklisted',
          rule: expect.any(String),
          bounces: 1,
          latest_bounce: {
            type: 'permanent',
            sub_type: null,
            status: null,
            reply_code: null,
            diagnostic: SPAMHAUS,
            provider: null,
            remote_mta: null,
            occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          },
        },
      ],
    });

    const real = await api.post('/bounces/reclassifications', { dry_run: false });
    expect(real.status).toBe(202);
    const run = await settledRun(api, real.body.id);
    expect(run).toMatchObject({
      status: 'completed',
      dry_run: false,
      lifted: 1,
      lifted_by_category: { sender_blocked: 1 },
    });
    expect(await listed(accountId)).toEqual(before.filter((email) => email !== blocked));
    // The real run lists what it lifted: the entry reviewed in the dry run.
    const lifted = await api.get(`/bounces/reclassifications/${real.body.id}/entries`);
    expect(lifted.body.data).toEqual([review.body.data[0]]);

    const history = await api.get(`/suppressions/${encodeURIComponent(blocked)}/events`);
    expect(history.body.data[0]).toMatchObject({
      event_id: `reclassified-${real.body.id}-${blockedId}`,
      type: 'removal',
      outcome: 'removed',
      removal_reason: 'reclassified',
      actor: { type: 'system', id: real.body.id },
      suppression_id: blockedId,
    });
    const { rows } = await app.database.db.query<{ suppression_id: string }>({
      text: `SELECT suppression_id FROM suppression_changes WHERE account_id = $1 AND type = 'suppression.removed'`,
      values: [accountId],
    });
    expect(rows.map((row) => row.suppression_id)).toEqual([blockedId]);

    // A second run finds nothing left to lift.
    const again = await settledRun(api, (await api.post('/bounces/reclassifications', { dry_run: false })).body.id);
    expect(again).toMatchObject({ status: 'completed', entries_total: 2, lifted: 0 });
  });

  it('when the account counts soft bounces to a threshold, then an entry whose counted bounces meet it stays and one whose do not is lifted', async () => {
    const { accountId } = await newApiAccount(app);
    await updateSettings(app.database.db, accountId, { soft_bounce_threshold: 2, soft_bounce_window_days: 7 });
    const twice = uniqueEmail();
    const once = uniqueEmail();
    const spread = uniqueEmail();
    await legacyBounceEntry(accountId, twice, MAILBOX_FULL, 30);
    await legacyBounce(accountId, twice, MAILBOX_FULL, 2, null, 'already_suppressed');
    await legacyBounceEntry(accountId, once, MAILBOX_FULL, 2);
    // Two, but 10 days apart: no 7-day window holds both.
    await legacyBounceEntry(accountId, spread, MAILBOX_FULL, 240);
    await legacyBounce(accountId, spread, MAILBOX_FULL, 0, null, 'already_suppressed');

    const { done } = await runHere(accountId);
    expect(await done).toMatchObject({
      status: 'completed',
      lifted: 2,
      lifted_by_category: { mailbox_unavailable: 2 },
      records_by_category: { mailbox_unavailable: 5 },
    });
    expect(await listed(accountId)).toEqual([twice]);
  });

  it('when an entry’s only evidence is a bounce labelled permanent that nothing explains, then the default policy lifts it; three such bounces within 30 days keep theirs', async () => {
    const { accountId } = await newApiAccount(app);
    const once = uniqueEmail();
    const thrice = uniqueEmail();
    await legacyBounceEntry(accountId, once, 'smtp; 550 5.0.0', 2);
    await legacyBounceEntry(accountId, thrice, 'smtp; 550 5.0.0', 24 * 14);
    await legacyBounce(accountId, thrice, 'smtp; 550 5.0.0', 24 * 7, null, 'already_suppressed');
    await legacyBounce(accountId, thrice, 'smtp; 550 5.0.0', 1, null, 'already_suppressed');

    const { done } = await runHere(accountId);
    expect(await done).toMatchObject({
      status: 'completed',
      lifted: 1,
      lifted_by_category: { unknown: 1 },
      records_by_category: { unknown: 4 },
    });
    expect(await listed(accountId)).toEqual([thrice]);
  });

  it('when a complaint is a not-spam report, then it does not keep a bounce entry whose bounces no longer suppress', async () => {
    const { accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    await legacyBounceEntry(accountId, email, SPAMHAUS);
    await app.database.db.query({
      text: `INSERT INTO suppression_events (account_id, event_id, type, email, complaint_feedback_type, outcome, occurred_at)
             VALUES ($1, $2, 'complaint', $3, 'not-spam', 'already_suppressed', now())`,
      values: [accountId, `evt-${randomUUID()}`, email],
    });
    const { done } = await runHere(accountId);
    expect(await done).toMatchObject({ lifted: 1 });
    expect(await listed(accountId)).toEqual([]);
  });

  it('when the address was removed and suppressed again, then only the records since the removal are its evidence', async () => {
    const { accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    // An unknown user once, removed by hand, then a block-listing suppressed it again.
    await legacyBounce(accountId, email, UNKNOWN_USER, 48, null, 'suppressed');
    await app.database.db.query({
      text: `INSERT INTO suppression_events (account_id, event_id, type, email, outcome, received_at)
             VALUES ($1, $2, 'removal', $3, 'removed', now() - interval '24 hours')`,
      values: [accountId, `removal-${randomUUID()}`, email],
    });
    await legacyBounceEntry(accountId, email, SPAMHAUS, 1);

    const { done } = await runHere(accountId);
    expect(await done).toMatchObject({ lifted: 1, records_examined: 1 });
    expect(await listed(accountId)).toEqual([]);
  });

  it('when a supporting bounce is being written while the run lifts its entry, then the run waits for it and keeps the entry', async () => {
    const { accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    const kept = uniqueEmail();
    await legacyBounceEntry(accountId, email, SPAMHAUS);
    await legacyBounceEntry(accountId, kept, SPAMHAUS);
    // A writer of events that started before the run read the records and has not committed: its
    // record, an unknown user, is dated before the run's read and invisible to it.
    const writer = await app.database.db.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query({
        text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_diagnostic, outcome, occurred_at)
               VALUES ($1, $2, 'bounce', $3, 'permanent', $4, 'already_suppressed', now())`,
        values: [accountId, `evt-${randomUUID()}`, email, UNKNOWN_USER],
      });
      const { id, done } = await runHere(accountId);
      let finished = false;
      void done.then(() => (finished = true));
      await sleep(300);
      expect(finished).toBe(false);
      const waiting = await findReclassification(app.database.db, accountId, id);
      expect(waiting).toMatchObject({ status: 'running', lifted: 0 });
      await writer.query('COMMIT');

      // The batch was read again with the record: only the other block-listed entry goes.
      expect(await done).toMatchObject({ status: 'completed', lifted: 1, entries_examined: 2 });
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined);
      writer.release();
    }
    expect(await listed(accountId)).toEqual([email]);
  });

  it('when a writer of events reaches an entry the run is lifting, then the run gives way and judges the entry again with its record', async () => {
    const { accountId } = await newApiAccount(app);
    let runId: string | undefined;
    const email = uniqueEmail();
    const entryId = await legacyBounceEntry(accountId, email, SPAMHAUS);
    const writer = await app.database.db.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query({
        text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_diagnostic, outcome, occurred_at)
               VALUES ($1, $2, 'bounce', $3, 'permanent', $4, 'suppressed', now())`,
        values: [accountId, `evt-${randomUUID()}`, email, UNKNOWN_USER],
      });
      const { id, done } = await runHere(accountId);
      runId = id;
      await sleep(200);
      // The writer now enters the address as the event path does: it waits for the run's delete.
      const entering = writer.query({
        text: `INSERT INTO suppressions (id, account_id, email, origin) VALUES ($1, $2, $3, 'bounce')
               ON CONFLICT (account_id, email, scope) DO NOTHING RETURNING id`,
        values: [newId(), accountId, email],
      });
      // The run gives way: the entry is there again, and the writer finds it.
      expect((await entering).rows).toEqual([]);
      await writer.query('COMMIT');
      expect(await done).toMatchObject({ status: 'completed', lifted: 0 });
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined);
      writer.release();
    }
    const { rows } = await app.database.db.query<{ id: string }>({
      text: 'SELECT id FROM suppressions WHERE account_id = $1',
      values: [accountId],
    });
    expect(rows.map((row) => row.id)).toEqual([entryId]);
    // The lift that gave way took its line of the run's list with it.
    expect(await listReclassificationEntries(app.database.db, runId, { limit: 10 })).toEqual({
      entries: [],
      hasMore: false,
    });
  });

  it('when the body is not a boolean dry_run, then 422; when the id is not one of the account’s, then 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.post('/bounces/reclassifications', { dry_run: 'yes' }), 422, 'validation_error');
    expectError(await api.post('/bounces/reclassifications', { apply: true }), 422, 'validation_error');
    expectError(await api.post('/bounces/reclassifications', [true]), 422, 'validation_error');
    expectError(await api.get('/bounces/reclassifications/not-an-id'), 422, 'validation_error');
    expectError(await api.get(`/bounces/reclassifications/${newId()}`), 404, 'not_found');
    const other = await newApiAccount(app);
    const theirs = await other.api.post('/bounces/reclassifications', {});
    expect(theirs.status).toBe(202);
    expect(theirs.body.dry_run).toBe(true);
    expectError(await api.get(`/bounces/reclassifications/${theirs.body.id}`), 404, 'not_found');
  });
});

describe('GET /bounces/reclassifications/{id}/entries', () => {
  it('when a dry run would lift five entries, then they page newest first with limit, after and before', async () => {
    const { api, accountId } = await newApiAccount(app);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await legacyBounceEntry(accountId, uniqueEmail(), SPAMHAUS));
    const newestFirst = [...ids].reverse();
    const { id, done } = await runHere(accountId, true);
    expect(await done).toMatchObject({ status: 'completed', lifted: 5 });

    const entries = (query: string) => api.get(`/bounces/reclassifications/${id}/entries?${query}`);
    const idsOf = (page: { body: { data: { id: string }[] } }) => page.body.data.map((entry) => entry.id);
    const first = await entries('limit=2');
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await entries(`limit=2&after=${newestFirst[1]}`);
    expect(idsOf(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.has_more).toBe(true);
    const last = await entries(`limit=2&after=${newestFirst[3]}`);
    expect(idsOf(last)).toEqual(newestFirst.slice(4));
    expect(last.body.has_more).toBe(false);
    const back = await entries(`limit=2&before=${newestFirst[2]}`);
    expect(idsOf(back)).toEqual(newestFirst.slice(0, 2));
    expect(back.body.has_more).toBe(false);
    expect(idsOf(await entries(''))).toEqual(newestFirst);
    // Nothing was lifted: the review changes nothing.
    expect(await listed(accountId)).toHaveLength(5);
  });

  it('when a run whose worker died is started again, then its list starts again and holds only what it finds now', async () => {
    const { api, accountId } = await newApiAccount(app);
    const kept = uniqueEmail();
    const gone = uniqueEmail();
    await legacyBounceEntry(accountId, kept, SPAMHAUS, 3);
    const goneId = await legacyBounceEntry(accountId, gone, SPAMHAUS, 2);
    const { id, done } = await runHere(accountId, true);
    expect(await done).toMatchObject({ lifted: 2 });

    // An unknown user arrives for one address, and the run is found unfinished, as a retry of its job finds it.
    await legacyBounce(accountId, kept, UNKNOWN_USER, 1, null, 'already_suppressed');
    await app.database.db.query({
      text: `UPDATE bounce_reclassifications SET status = 'running' WHERE id = $1`,
      values: [id],
    });
    await runReclassification(app.database.db, id);

    expect(await findReclassification(app.database.db, accountId, id)).toMatchObject({ lifted: 1 });
    const page = await api.get(`/bounces/reclassifications/${id}/entries`);
    expect(page.body.data.map((entry: { id: string; email: string }) => [entry.id, entry.email])).toEqual([
      [goneId, gone],
    ]);
  });

  it('when the id is unknown, another account’s, or not an id, or the paging is bad, then the error shape says so', async () => {
    const { api, accountId } = await newApiAccount(app);
    await legacyBounceEntry(accountId, uniqueEmail(), SPAMHAUS);
    const { id, done } = await runHere(accountId, true);
    await done;
    const other = await newApiAccount(app);

    expectError(await api.get(`/bounces/reclassifications/${newId()}/entries`), 404, 'not_found');
    expectError(await other.api.get(`/bounces/reclassifications/${id}/entries`), 404, 'not_found');
    expectError(await api.get('/bounces/reclassifications/not-an-id/entries'), 422, 'validation_error');
    for (const [query, message] of [
      ['limit=0', '`limit` must be a whole number from 1 to 100.'],
      ['limit=101', '`limit` must be a whole number from 1 to 100.'],
      ['limit=ten', '`limit` must be a whole number from 1 to 100.'],
      ['after=42', '`after` must be an entry id (a UUID).'],
      [`after=${newId()}&before=${newId()}`, '`after` and `before` cannot be used together.'],
    ] as const) {
      const answer = await api.get(`/bounces/reclassifications/${id}/entries?${query}`);
      expectError(answer, 422, 'validation_error');
      expect(answer.body.message).toBe(message);
    }
    expectError(await api.request('POST', `/bounces/reclassifications/${id}/entries`), 405, 'method_not_allowed');
  });
});
