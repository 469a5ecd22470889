import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { updateSettings } from '../../src/policy/settings-repository.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useEventWorker } from '../support/test-event-worker.js';
import { eventually } from '../support/test-queue.js';

const workers = useEventWorker({ concurrency: 50 });
const HOUR = 60 * 60 * 1000;

const SPAMHAUS =
  '550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/203.0.113.7';
const GMAIL_REPUTATION =
  '550-5.7.1 [203.0.113.7] Our system has detected that this message is likely suspicious due to the very low reputation of the sending domain. To best protect our users from spam, the message has been blocked.';
const USER_UNKNOWN = '550 5.1.1 <{email}>: Recipient address rejected: User unknown in virtual mailbox table';

function bounce(accountId: string, email: string, diagnostic: string, hoursAgo = 0): SuppressionEventInput {
  return {
    account_id: accountId,
    event_id: `evt-${randomUUID()}`,
    type: 'bounce',
    email,
    source_id: randomUUID(),
    occurred_at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
    bounce: { type: 'permanent', sub_type: 'General', diagnostic: diagnostic.replace('{email}', email) },
  };
}

async function count(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await workers.database.db.query<{ n: number }>({ text: sql, values });
  return rows[0]?.n ?? 0;
}

const recordedOf = (accountId: string) =>
  count('SELECT count(*)::int AS n FROM suppression_events WHERE account_id = $1', [accountId]);
const entriesOf = (accountId: string) =>
  count('SELECT count(*)::int AS n FROM suppressions WHERE account_id = $1', [accountId]);

async function publishAndWait(accountId: string, events: SuppressionEventInput[]): Promise<void> {
  await workers.producer.publishMany(events);
  await eventually(async () => (await recordedOf(accountId)) === events.length, 60_000, `${events.length} records`);
}

describe('a sender incident, labelled permanent by the provider', () => {
  it('when 1,000 addresses bounce three times each with a block-list or low-reputation refusal under a threshold of 2, then none is suppressed', async () => {
    const { accountId } = await newAccount(workers.database.db);
    await updateSettings(workers.database.db, accountId, { soft_bounce_threshold: 2, soft_bounce_window_days: 7 });
    const emails = uniqueEmails(1000);
    const events = [3, 2, 1].flatMap((hoursAgo) =>
      emails.map((email, index) => bounce(accountId, email, index % 2 === 0 ? SPAMHAUS : GMAIL_REPUTATION, hoursAgo)),
    );

    await publishAndWait(accountId, events);

    expect(await entriesOf(accountId)).toBe(0);
    const { rows } = await workers.database.db.query<{ bounce_category: string; outcome: string; n: number }>({
      text: `SELECT bounce_category, outcome, count(*)::int AS n FROM suppression_events WHERE account_id = $1
             GROUP BY 1, 2`,
      values: [accountId],
    });
    expect(rows).toEqual([{ bounce_category: 'sender_blocked', outcome: 'not_suppressed', n: 3000 }]);
  });

  it('when 1,000 addresses bounce with "user unknown", then all 1,000 are suppressed', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const emails = uniqueEmails(1000);

    await publishAndWait(
      accountId,
      emails.map((email) => bounce(accountId, email, USER_UNKNOWN)),
    );

    expect(await entriesOf(accountId)).toBe(1000);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM suppression_events WHERE account_id = $1 AND bounce_category = 'invalid_address'
           AND bounce_reason = 'user_unknown' AND outcome = 'suppressed'`,
        [accountId],
      ),
    ).toBe(1000);
  });
});

describe('bounces labelled permanent that nothing explains', () => {
  it('when 1,000 addresses bounce once each with only a bare 550 and the provider’s permanent label, then none is suppressed and each is recorded as unknown, the label kept', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const emails = uniqueEmails(1000);

    await publishAndWait(
      accountId,
      emails.map((email) => bounce(accountId, email, 'smtp; 550 Requested action not completed')),
    );

    expect(await entriesOf(accountId)).toBe(0);
    const { rows } = await workers.database.db.query<{
      bounce_category: string;
      bounce_rule: string;
      outcome: string;
      n: number;
    }>({
      text: `SELECT bounce_category, bounce_rule, outcome, count(*)::int AS n FROM suppression_events
             WHERE account_id = $1 GROUP BY 1, 2, 3`,
      values: [accountId],
    });
    expect(rows).toEqual([
      { bounce_category: 'unknown', bounce_rule: 'label:permanent', outcome: 'not_suppressed', n: 1000 },
    ]);
  });
});

describe('the account’s bounce actions', () => {
  it('when an account makes sender_blocked count, then block-list refusals reach its threshold', async () => {
    const { accountId } = await newAccount(workers.database.db);
    await updateSettings(workers.database.db, accountId, {
      bounce_actions: { sender_blocked: 'count' },
      soft_bounce_threshold: 2,
    });
    const email = uniqueEmail();

    await publishAndWait(accountId, [bounce(accountId, email, SPAMHAUS, 2), bounce(accountId, email, SPAMHAUS, 1)]);

    expect(await entriesOf(accountId)).toBe(1);
  });

  it('when an account makes invalid_address record, then an unknown user is recorded and not suppressed', async () => {
    const { accountId } = await newAccount(workers.database.db);
    await updateSettings(workers.database.db, accountId, { bounce_actions: { invalid_address: 'record' } });

    await publishAndWait(accountId, [bounce(accountId, uniqueEmail(), USER_UNKNOWN)]);

    expect(await entriesOf(accountId)).toBe(0);
  });

  it('when a full mailbox bounces under the defaults, then it counts toward the default threshold and never suppresses alone', async () => {
    const { accountId } = await newAccount(workers.database.db);
    const email = uniqueEmail();
    const full = '552 5.2.2 <{email}>: mailbox full';

    await publishAndWait(accountId, [bounce(accountId, email, full, 3), bounce(accountId, email, full, 2)]);
    expect(await entriesOf(accountId)).toBe(0);
    await workers.producer.publish(bounce(accountId, email, full, 1));
    await eventually(async () => (await entriesOf(accountId)) === 1, 20_000, 'the threshold');
  });
});

describe('complaints that are none', () => {
  it.each(['not-spam', 'auth-failure'])(
    'when an ARF report of type %s arrives, then it is recorded and suppresses nothing',
    async (type) => {
      const { accountId } = await newAccount(workers.database.db);
      const email = uniqueEmail();
      await publishAndWait(accountId, [
        {
          account_id: accountId,
          event_id: `evt-${randomUUID()}`,
          type: 'complaint',
          email,
          source_id: randomUUID(),
          occurred_at: new Date().toISOString(),
          complaint: { feedback_type: type },
        },
      ]);
      expect(await entriesOf(accountId)).toBe(0);
    },
  );
});
