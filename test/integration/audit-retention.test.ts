import { beforeAll, describe, expect, it } from 'vitest';
import { createMonthPartitions } from '../../src/db/month-partitions.js';
import { maintainPartitions } from '../../src/maintenance/partitions-job.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { listHistory } from '../../src/suppressions/suppression-history.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
const DAY_MS = 86_400_000;

async function record(inputs: SuppressionEventInput[]): Promise<string[]> {
  const results = await recordEventBatch(database.db, inputs.map(parseSuppressionEvent), classifyBounce);
  return results.map((result) => result.outcome);
}

/** Moves an event's record to the time it would have been received at (and so to that month's partition). */
async function receivedAt(accountId: string, eventId: string, at: Date): Promise<void> {
  await database.db.query({
    text: 'UPDATE suppression_events SET received_at = $3 WHERE account_id = $1 AND event_id = $2',
    values: [accountId, eventId, at],
  });
  await database.db.query({
    text: 'UPDATE event_receipts SET received_at = $3 WHERE account_id = $1 AND event_id = $2',
    values: [accountId, eventId, at],
  });
}

async function attachedPartitions(): Promise<string[]> {
  const { rows } = await database.db.query<{ name: string }>({
    text: `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'suppression_events'::regclass ORDER BY 1`,
    values: [],
  });
  return rows.map((row) => row.name);
}

async function partitionsHoldingRecords(): Promise<string[]> {
  const { rows } = await database.db.query<{ name: string }>({
    text: 'SELECT DISTINCT tableoid::regclass::text AS name FROM suppression_events ORDER BY 1',
    values: [],
  });
  return rows.map((row) => row.name);
}

async function entries(accountId: string): Promise<{ id: string; email: string }[]> {
  const { rows } = await database.db.query<{ id: string; email: string }>({
    text: 'SELECT id, email FROM suppressions WHERE account_id = $1 ORDER BY email',
    values: [accountId],
  });
  return rows;
}

async function historyOf(accountId: string, email: string) {
  const { records } = await listHistory(database.db, accountId, email, { limit: 100 });
  return records;
}

function monthsAgo(now: Date, months: number, day = 10): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, day, 12));
}

describe('an audit trail kept for a set number of days', () => {
  const now = new Date();
  let owner: TestAccount;
  const deciding = new Map<string, string>();
  const dropped: { email: string; eventId: string }[] = [];
  let removedEmail = '';

  beforeAll(async () => {
    owner = await newAccount(database.db);
    for (let months = 13; months >= 0; months -= 1)
      await createMonthPartitions(database.db, ['suppression_events'], monthsAgo(now, months));

    // Each month of the last 13: a dead address suppressed by its bounce, a full mailbox that
    // suppresses nothing, and a complaint whose entry is later removed by hand in month 12.
    for (let months = 13; months >= 1; months -= 1) {
      const at = monthsAgo(now, months);
      const dead = bounceEvent(owner.accountId, `dead-${months}@retention.example`);
      const full = bounceEvent(owner.accountId, `full-${months}@retention.example`, 'transient');
      const complaint = complaintEvent(owner.accountId, `complained-${months}@retention.example`);
      expect(await record([dead, full, complaint])).toEqual(['suppressed', 'not_suppressed', 'suppressed']);
      for (const event of [dead, full, complaint]) await receivedAt(owner.accountId, event.event_id, at);
      deciding.set(dead.email, dead.event_id);
      deciding.set(complaint.email, complaint.event_id);
      if (months >= 3) dropped.push({ email: full.email, eventId: full.event_id });
    }
    removedEmail = 'complained-12@retention.example';
    deciding.delete(removedEmail);
    await removeSuppressions(
      database.db,
      owner.accountId,
      { emails: [removedEmail] },
      { keyId: null, force: true, reason: null, actor: { type: 'system', id: 'test' } },
    );
  });

  describe('when the retention of 30 days runs over 13 months of history', () => {
    beforeAll(async () => {
      await maintainPartitions(database.db, 30, now);
    });

    it('then only the partitions of the last one or two months and the one ahead remain', async () => {
      const remaining = await attachedPartitions();
      const holding = await partitionsHoldingRecords();
      expect(holding.length).toBeGreaterThanOrEqual(1);
      expect(holding.length).toBeLessThanOrEqual(2);
      const month = (offset: number) => {
        const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
        return `suppression_events_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
      };
      expect(remaining).toContain(month(0));
      expect(remaining).toContain(month(1));
      expect(remaining.every((name) => [month(-1), month(0), month(1)].includes(name))).toBe(true);
      const { rows } = await database.db.query<{ name: string }>({
        text: `SELECT relname AS name FROM pg_class WHERE relname LIKE 'suppression\\_events\\_%\\_expired'`,
        values: [],
      });
      expect(rows).toEqual([]);
    });

    it('then every current entry still names its deciding bounce or complaint, with its classification', async () => {
      const current = await entries(owner.accountId);
      expect(current.map((entry) => entry.email).sort()).toEqual([...deciding.keys()].sort());
      for (const entry of current) {
        const records = await historyOf(owner.accountId, entry.email);
        const decidingRecord = records.find((item) => item.eventId === deciding.get(entry.email));
        expect(decidingRecord, entry.email).toMatchObject({ outcome: 'suppressed', suppressionId: entry.id });
        if (entry.email.startsWith('dead-')) {
          expect(decidingRecord?.bounce?.classification).toMatchObject({
            category: 'invalid_address',
            reason: expect.any(String),
            rule: expect.any(String),
          });
        }
      }
    });

    it('then records that explain no current entry are gone with their months', async () => {
      for (const { email } of dropped) expect(await historyOf(owner.accountId, email)).toEqual([]);
      // The complaint that put it there went with its month; this month's removal stays.
      const removed = await historyOf(owner.accountId, removedEmail);
      expect(removed.map((item) => item.type)).toEqual(['removal']);
    });

    it('then an event redelivered after its month was dropped is recorded again as a new one', async () => {
      const first = dropped[0]!;
      const again = { ...bounceEvent(owner.accountId, first.email, 'transient'), event_id: first.eventId };
      expect(await record([again])).toEqual(['not_suppressed']);
      expect((await historyOf(owner.accountId, first.email)).map((item) => item.eventId)).toEqual([first.eventId]);
    });

    it('then a second run finds nothing more to drop', async () => {
      const result = await maintainPartitions(database.db, 30, now);
      expect(result).toEqual({ created: [], dropped: [], kept: 0, held: [] });
    });
  });
});

describe('de-duplication across the month partitions', () => {
  it('when an event received last month is redelivered, then it is a duplicate and changes nothing, even after its entry was removed', async () => {
    const { accountId } = await newAccount(database.db);
    const now = new Date();
    await createMonthPartitions(database.db, ['suppression_events'], monthsAgo(now, 1));
    const bounce = bounceEvent(accountId, 'redelivered@retention.example');
    expect(await record([bounce])).toEqual(['suppressed']);
    await receivedAt(accountId, bounce.event_id, monthsAgo(now, 1, 28));
    await maintainPartitions(database.db, 62, now);

    expect(await record([bounce])).toEqual(['duplicate']);
    await removeSuppressions(
      database.db,
      accountId,
      { emails: [bounce.email] },
      { keyId: null, force: false, reason: null, actor: { type: 'system', id: 'test' } },
    );
    expect(await record([bounce, bounce])).toEqual(['duplicate', 'duplicate']);
    expect(await entries(accountId)).toEqual([]);
  });

  it('when two batches carry the same event at once, then it is recorded and applied once', async () => {
    const { accountId } = await newAccount(database.db);
    const bounce = bounceEvent(accountId, 'raced@retention.example');
    const outcomes = await Promise.all([record([bounce]), record([bounce]), record([bounce])]);
    expect(outcomes.flat().sort()).toEqual(['duplicate', 'duplicate', 'suppressed']);
    expect((await historyOf(accountId, bounce.email)).length).toBe(1);
  });

  it('when a month more than the retention ago is past, then its partition is dropped only once wholly past it', async () => {
    const now = new Date();
    const day = now.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const retentionDays = Math.floor(day / DAY_MS) + 1;
    const previous = monthsAgo(now, 1);
    await createMonthPartitions(database.db, ['suppression_events'], previous);
    const { accountId } = await newAccount(database.db);
    const bounce = bounceEvent(accountId, 'edge@retention.example', 'transient');
    await record([bounce]);
    await receivedAt(accountId, bounce.event_id, previous);
    // The previous month ended less than `retentionDays` ago: some of its records are inside the retention.
    await maintainPartitions(database.db, retentionDays, now);
    expect((await historyOf(accountId, bounce.email)).length).toBe(1);
  });
});
