import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import type { BounceType } from '../../src/events/event-schema.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { bounceEvent } from '../support/test-events.js';
import { allSettled, settled } from '../support/test-queue.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { DEFAULT_SETTINGS } from '../../src/policy/settings.js';
import { useEventWorker } from '../support/test-event-worker.js';

const workers = useEventWorker({ concurrency: 10 });
const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse('2026-11-01T00:00:00.000Z');

function softBounce(accountId: string, email: string, day: number, type: BounceType = 'transient') {
  return parseSuppressionEvent({
    ...bounceEvent(accountId, email, type),
    occurred_at: new Date(START + day * DAY).toISOString(),
  });
}

async function accountWithThreshold(threshold: number | null, windowDays = 7): Promise<string> {
  const { accountId } = await newAccount(workers.database.db);
  await updateSettings(workers.database.db, accountId, {
    soft_bounce_threshold: threshold,
    soft_bounce_window_days: windowDays,
  });
  return accountId;
}

/** Records each group as its own batch, one after the other: events arriving over time. */
async function arriveInTurn(...batches: ReturnType<typeof softBounce>[][]) {
  const outcomes = [];
  for (const batch of batches) outcomes.push(...(await recordEventBatch(workers.database.db, batch)));
  return outcomes;
}

async function entryOf(accountId: string, email: string) {
  const { rows } = await workers.database.db.query<{ id: string; origin: string; source_id: string }>({
    text: 'SELECT id, origin, source_id FROM suppressions WHERE account_id = $1 AND email = $2',
    values: [accountId, email],
  });
  return rows[0] ?? null;
}

async function outcomesRecorded(accountId: string, email: string): Promise<string[]> {
  const { rows } = await workers.database.db.query<{ outcome: string }>({
    text: 'SELECT outcome FROM suppression_events WHERE account_id = $1 AND email = $2 ORDER BY received_at, event_id',
    values: [accountId, email],
  });
  return rows.map((row) => row.outcome);
}

/**
 * A bounce labelled permanent whose text and codes decide nothing, as some servers answer for an
 * address that does not exist: a bare 550 with a status that names no subject.
 */
function unexplained(accountId: string, email: string, day: number): SuppressionEventInput {
  return {
    account_id: accountId,
    event_id: `evt-${randomUUID()}`,
    type: 'bounce',
    email,
    source_id: randomUUID(),
    occurred_at: new Date(START + day * DAY).toISOString(),
    bounce: { type: 'permanent', sub_type: 'General', status: '5.0.0', diagnostic: 'smtp; 550 5.0.0' },
  };
}

/** Publishes each event on the events queue after the one before it has been applied; the jobs' results. */
async function publishInTurn(events: SuppressionEventInput[]) {
  const results = [];
  for (const event of events) {
    const { job, state } = await settled(workers.events.queue, await workers.producer.publish(event));
    expect(state).toBe('completed');
    results.push(job.returnvalue as { outcome: string; suppression_id: string | null; category: string });
  }
  return results;
}

async function classificationsOf(accountId: string, email: string) {
  const { rows } = await workers.database.db.query({
    text: `SELECT bounce_type, bounce_category, bounce_reason, bounce_rule, outcome FROM suppression_events
           WHERE account_id = $1 AND email = $2 ORDER BY occurred_at`,
    values: [accountId, email],
  });
  return rows;
}

describe('bounces that nothing explains, under the default policy', () => {
  const weekly = [0, 7, 14];

  it('when the defaults are read, then the threshold is 3 within 30 days: a weekly sender’s third bounce is inside the window', () => {
    expect(DEFAULT_SETTINGS.soft_bounce_threshold).toBe(3);
    expect(DEFAULT_SETTINGS.soft_bounce_window_days).toBeGreaterThanOrEqual(weekly.at(-1)!);
  });

  it('when an address gets one bounce labelled permanent that nothing explains, then it is not suppressed, and the history records category unknown with the rule label:permanent', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const email = uniqueEmail();

    const [result] = await publishInTurn([unexplained(accountId, email, 0)]);

    expect(result).toEqual({ outcome: 'not_suppressed', suppression_id: null, category: 'unknown' });
    expect(await entryOf(accountId, email)).toBeNull();
    expect(await classificationsOf(accountId, email)).toEqual([
      {
        bounce_type: 'permanent',
        bounce_category: 'unknown',
        bounce_reason: 'label_permanent',
        bounce_rule: 'label:permanent',
        outcome: 'not_suppressed',
      },
    ]);
  });

  it('when an address that never changed its settings gets its third such bounce, a week after the second, then it is suppressed with outcome suppressed_soft_bounce_threshold', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const email = uniqueEmail();
    const events = weekly.map((day) => unexplained(accountId, email, day));

    const results = await publishInTurn(events);

    expect(results.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
    expect(await entryOf(accountId, email)).toMatchObject({
      origin: 'bounce',
      source_id: events[2]!.source_id,
      id: results[2]!.suppression_id,
    });
    expect((await classificationsOf(accountId, email)).map((row) => row.bounce_rule)).toEqual(
      Array(3).fill('label:permanent'),
    );
  });

  it('when an account’s first change was of its expiry, then its threshold is the default and the third such bounce suppresses', async () => {
    const { accountId } = await newAccount(workers.database.db);
    await updateSettings(workers.database.db, accountId, { expire_after_days: { bounce: 90 } });
    const email = uniqueEmail();

    const results = await publishInTurn(weekly.map((day) => unexplained(accountId, email, day)));

    expect(results.at(-1)!.outcome).toBe('suppressed_soft_bounce_threshold');
  });

  it('when the account set its threshold to null, then such bounces never suppress, however many', async () => {
    const accountId = await accountWithThreshold(null);
    const email = uniqueEmail();

    const results = await publishInTurn([0, 1, 2, 3, 4].map((day) => unexplained(accountId, email, day)));

    expect(results.map((result) => result.outcome)).toEqual(Array(5).fill('not_suppressed'));
    expect(await entryOf(accountId, email)).toBeNull();
  });

  it('when the third such bounce comes more than the window after the first, then it does not suppress; the fourth, within the window of the second, does', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const email = uniqueEmail();
    const days = [0, 16, 31, 32];

    const results = await publishInTurn(days.map((day) => unexplained(accountId, email, day)));

    expect(results.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'not_suppressed',
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
  });
});

describe('soft bounces under a threshold', () => {
  it('when the account turned the threshold off, then soft bounces never suppress, however many', async () => {
    const accountId = await accountWithThreshold(null);
    const email = uniqueEmail();
    const outcomes = await arriveInTurn(...[0, 1, 2, 3, 4].map((day) => [softBounce(accountId, email, day)]));

    expect(outcomes.map((result) => result.outcome)).toEqual(Array(5).fill('not_suppressed'));
    expect(await entryOf(accountId, email)).toBeNull();
  });

  it('when the third soft bounce within seven days arrives, then it suppresses the address with its own source_id', async () => {
    const accountId = await accountWithThreshold(3);
    const email = uniqueEmail();
    const third = softBounce(accountId, email, 4, 'undetermined');
    const outcomes = await arriveInTurn([softBounce(accountId, email, 0)], [softBounce(accountId, email, 2)], [third]);

    expect(outcomes.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
    const entry = await entryOf(accountId, email);
    expect(entry).toMatchObject({ origin: 'bounce', source_id: third.source_id, id: outcomes[2]!.suppression_id });
    expect(await outcomesRecorded(accountId, email)).toContain('suppressed_soft_bounce_threshold');
  });

  it('when the bounces arrive out of order, then the one whose arrival completes a window crosses', async () => {
    const accountId = await accountWithThreshold(3);
    const email = uniqueEmail();
    const outcomes = await arriveInTurn(
      [softBounce(accountId, email, 6)],
      [softBounce(accountId, email, 0)],
      [softBounce(accountId, email, 20)],
      [softBounce(accountId, email, 3)],
    );

    expect(outcomes.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'not_suppressed',
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
  });

  it('when the first and last are exactly the window apart, then they count; a millisecond more and they do not', async () => {
    const accountId = await accountWithThreshold(2, 7);
    const [inside, outside] = uniqueEmails(2);
    const atBoundary = await arriveInTurn([softBounce(accountId, inside!, 0)], [softBounce(accountId, inside!, 7)]);
    const pastBoundary = parseSuppressionEvent({
      ...bounceEvent(accountId, outside!, 'transient'),
      occurred_at: new Date(START + 7 * DAY + 1).toISOString(),
    });
    const beyond = await arriveInTurn([softBounce(accountId, outside!, 0)], [pastBoundary]);

    expect(atBoundary[1]!.outcome).toBe('suppressed_soft_bounce_threshold');
    expect(beyond[1]!.outcome).toBe('not_suppressed');
  });

  it('when several soft bounces of one address come in one batch, then the one that reaches the threshold crosses and the rest only record', async () => {
    const accountId = await accountWithThreshold(2);
    const email = uniqueEmail();
    const outcomes = await recordEventBatch(workers.database.db, [
      softBounce(accountId, email, 0),
      softBounce(accountId, email, 1),
      softBounce(accountId, email, 2),
    ]);

    expect(outcomes.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
      'not_suppressed',
    ]);
  });

  it('when a permanent bounce comes, then it suppresses at once as before, and soft bounces after it change nothing', async () => {
    const accountId = await accountWithThreshold(2);
    const email = uniqueEmail();
    const outcomes = await arriveInTurn(
      [softBounce(accountId, email, 0, 'permanent')],
      [softBounce(accountId, email, 1)],
      [softBounce(accountId, email, 2)],
    );

    expect(outcomes.map((result) => result.outcome)).toEqual(['suppressed', 'not_suppressed', 'not_suppressed']);
  });

  it('when the threshold is set after the bounces came, then the next soft bounce within their window suppresses', async () => {
    const accountId = await accountWithThreshold(null);
    const email = uniqueEmail();
    await arriveInTurn([softBounce(accountId, email, 0)], [softBounce(accountId, email, 1)]);
    await updateSettings(workers.database.db, accountId, { soft_bounce_threshold: 3 });

    const [farLater, within] = await arriveInTurn(
      [softBounce(accountId, email, 30)],
      [softBounce(accountId, email, 2)],
    );
    expect(farLater!.outcome).toBe('not_suppressed');
    expect(within!.outcome).toBe('suppressed_soft_bounce_threshold');
  });

  it('when an address suppressed by the threshold is removed, then its count starts again from the removal', async () => {
    const accountId = await accountWithThreshold(2);
    const email = uniqueEmail();
    await arriveInTurn([softBounce(accountId, email, 0)], [softBounce(accountId, email, 1)]);
    await removeSuppressions(
      workers.database.db,
      accountId,
      { emails: [email] },
      { keyId: null, force: false, reason: null, actor: { type: 'queue', id: null } },
    );

    const afterRemoval = await arriveInTurn([softBounce(accountId, email, 2)], [softBounce(accountId, email, 3)]);
    expect(afterRemoval.map((result) => result.outcome)).toEqual([
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
  });

  it('when the earlier bounces were recorded before bounces were classified, then they count by their label: transient and undetermined do, permanent does not', async () => {
    const accountId = await accountWithThreshold(3);
    const [byLabel, oneHard] = uniqueEmails(2) as [string, string];
    for (const email of [byLabel, oneHard]) {
      await arriveInTurn([softBounce(accountId, email, 0)], [softBounce(accountId, email, 1, 'undetermined')]);
    }
    // As such records were written then: no category, only the provider's label.
    await workers.database.db.query({
      text: `UPDATE suppression_events SET bounce_category = NULL, bounce_reason = NULL, bounce_rule = NULL,
                                           classifier_version = NULL
             WHERE account_id = $1`,
      values: [accountId],
    });
    await workers.database.db.query({
      text: `UPDATE suppression_events SET bounce_type = 'permanent' WHERE account_id = $1 AND email = $2 AND occurred_at = $3`,
      values: [accountId, oneHard, new Date(START)],
    });

    const outcomes = await arriveInTurn([softBounce(accountId, byLabel, 2)], [softBounce(accountId, oneHard, 2)]);
    expect(outcomes.map((result) => result.outcome)).toEqual(['suppressed_soft_bounce_threshold', 'not_suppressed']);
  });

  it('when a soft bounce is delivered twice, then the copy is a duplicate and does not count', async () => {
    const accountId = await accountWithThreshold(2);
    const email = uniqueEmail();
    const first = softBounce(accountId, email, 0);
    const outcomes = await arriveInTurn([first], [first]);

    expect(outcomes.map((result) => result.outcome)).toEqual(['not_suppressed', 'duplicate']);
    expect(await entryOf(accountId, email)).toBeNull();
  });
});

describe('racing workers', () => {
  it('when batches holding the crossing bounces of the same addresses are written at once, then each address is suppressed once, credited to one bounce', async () => {
    const accountId = await accountWithThreshold(2);
    const emails = uniqueEmails(20);
    // Each address gets two soft bounces, each in a different batch; the batches are written
    // concurrently, on different connections, in opposite orders.
    const left = emails.map((email) => softBounce(accountId, email, 0));
    const right = emails.map((email) => softBounce(accountId, email, 1)).reverse();
    const [a, b] = await Promise.all([
      recordEventBatch(workers.database.db, left),
      recordEventBatch(workers.database.db, right),
    ]);

    const crossings = [...a, ...b].filter((result) => result.outcome === 'suppressed_soft_bounce_threshold');
    expect(crossings).toHaveLength(20);
    for (const email of emails) {
      expect(
        (await outcomesRecorded(accountId, email)).filter((o) => o === 'suppressed_soft_bounce_threshold'),
      ).toHaveLength(1);
      expect(await entryOf(accountId, email)).toMatchObject({ origin: 'bounce' });
    }
  });

  it('when two event workers take the jobs of the crossing bounces, then the job results say which one suppressed', async () => {
    const accountId = await accountWithThreshold(2);
    const email = uniqueEmail();
    const jobs = await workers.events.queue.addBulk(
      [0, 1].map((day) => ({
        name: 'bounce',
        data: {
          ...bounceEvent(accountId, email, 'transient'),
          event_id: `evt-${randomUUID()}`,
          occurred_at: new Date(START + day * DAY).toISOString(),
        },
      })),
    );
    const results = await allSettled(
      workers.events.queue,
      jobs.map((job) => job.id!),
    );

    expect(results.map(({ state }) => state)).toEqual(['completed', 'completed']);
    expect(results.map(({ job }) => (job.returnvalue as { outcome: string }).outcome).sort()).toEqual([
      'not_suppressed',
      'suppressed_soft_bounce_threshold',
    ]);
  });
});
