import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { expectError } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { bounceEvent } from '../support/test-events.js';

const app = useTestApp();

const ZEROS = {
  invalid_address: 0,
  mailbox_unavailable: 0,
  sender_blocked: 0,
  delivery_failure: 0,
  auto_reply: 0,
  unknown: 0,
};

const NO_OUTCOMES = {
  suppressed: 0,
  suppressed_soft_bounce_threshold: 0,
  already_suppressed: 0,
  not_suppressed: 0,
  allowlisted: 0,
};
/** Every category's outcomes zero, but for those given. */
const outcomes = (given: Partial<Record<keyof typeof ZEROS, Partial<typeof NO_OUTCOMES>>>) =>
  Object.fromEntries(
    Object.keys(ZEROS).map((category) => [category, { ...NO_OUTCOMES, ...given[category as keyof typeof ZEROS] }]),
  );

/** A bounce record received at `receivedAt`, classified (or, with a null category, recorded before bounces were). */
async function bounceRecord(
  accountId: string,
  email: string,
  category: string | null,
  reason: string | null,
  receivedAt: string,
): Promise<void> {
  await app.database.db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_category, bounce_reason,
             bounce_rule, classifier_version, outcome, occurred_at, received_at)
           VALUES ($1, $2, 'bounce', $3, 'permanent', $4, $5, CASE WHEN $4::text IS NULL THEN NULL ELSE 'test' END,
                   CASE WHEN $4::text IS NULL THEN NULL ELSE '1.test' END, 'not_suppressed', $6, $6)`,
    values: [accountId, `evt-${randomUUID()}`, email, category, reason, receivedAt],
  });
}

describe('GET /bounces/summary', () => {
  it('when an account had bounces over some days, then it counts them by category, reason, day and the domains refusing the sender', async () => {
    const { api, accountId } = await newApiAccount(app);
    const other = await newApiAccount(app);
    await bounceRecord(accountId, 'a@outlook.com', 'sender_blocked', 'blocklisted', '2026-11-20T10:00:00Z');
    await bounceRecord(accountId, 'b@outlook.com', 'sender_blocked', 'blocklisted', '2026-11-22T10:00:00Z');
    await bounceRecord(accountId, 'c@outlook.com', 'sender_blocked', 'authentication', '2026-11-22T11:00:00Z');
    await bounceRecord(accountId, 'd@gmail.com', 'sender_blocked', 'bad_reputation', '2026-11-22T12:00:00Z');
    await bounceRecord(accountId, 'e@example.org', 'invalid_address', 'user_unknown', '2026-11-22T23:59:59Z');
    await bounceRecord(accountId, 'f@example.org', 'mailbox_unavailable', 'mailbox_full', '2026-11-23T00:00:00Z');
    // Recorded before bounces were classified: `unknown`, `unclassified`.
    await bounceRecord(accountId, 'g@example.org', null, null, '2026-11-23T08:00:00Z');
    // Outside the period, and another account's.
    await bounceRecord(accountId, 'h@example.org', 'invalid_address', 'user_unknown', '2026-11-24T00:00:00Z');
    await bounceRecord(other.accountId, 'i@outlook.com', 'sender_blocked', 'blocklisted', '2026-11-22T10:00:00Z');

    const response = await api.get('/bounces/summary?since=2026-11-21T00:00:00Z&until=2026-11-24T00:00:00Z');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'bounce_summary',
      since: '2026-11-21T00:00:00.000Z',
      until: '2026-11-24T00:00:00.000Z',
      total: 6,
      by_category: { ...ZEROS, sender_blocked: 3, invalid_address: 1, mailbox_unavailable: 1, unknown: 1 },
      sender_blocked_share: 0.5,
      by_reason: {
        authentication: 1,
        bad_reputation: 1,
        blocklisted: 1,
        mailbox_full: 1,
        unclassified: 1,
        user_unknown: 1,
      },
      sender_blocked_domains: [
        { domain: 'outlook.com', count: 2 },
        { domain: 'gmail.com', count: 1 },
      ],
      by_day: [
        { date: '2026-11-21', counts: ZEROS },
        { date: '2026-11-22', counts: { ...ZEROS, sender_blocked: 3, invalid_address: 1 } },
        // `until` is excluded: the 24th, which starts at it, is not a day of the period.
        { date: '2026-11-23', counts: { ...ZEROS, mailbox_unavailable: 1, unknown: 1 } },
      ],
      outcomes_by_category: outcomes({
        sender_blocked: { not_suppressed: 3 },
        invalid_address: { not_suppressed: 1 },
        mailbox_unavailable: { not_suppressed: 1 },
        unknown: { not_suppressed: 1 },
      }),
    });
  });

  it('when block-list bounces suppressed under a policy since changed, then their recorded outcomes say so, not the policy now', async () => {
    const { api, accountId } = await newApiAccount(app);
    const blocked = (email: string) => ({
      ...bounceEvent(accountId, email),
      bounce: {
        type: 'permanent' as const,
        status: '5.7.1',
        diagnostic: 'smtp; 550 5.7.1 blocked using zen.spamhaus.org',
      },
    });
    const record = (...events: ReturnType<typeof blocked>[]) =>
      recordEventBatch(app.database.db, events.map(parseSuppressionEvent));
    const listed = uniqueEmail();
    const allowed = `staff@${uniqueEmail().split('@')[0]}.example`;
    await api.post('/allowlist', { email: allowed });
    await api.request('PATCH', '/settings/suppressions', { body: { bounce_actions: { sender_blocked: 'suppress' } } });
    await record(blocked(uniqueEmail()), blocked(listed), blocked(allowed));
    await record(blocked(listed));
    await api.request('PATCH', '/settings/suppressions', { body: { bounce_actions: { sender_blocked: 'record' } } });
    await record(blocked(uniqueEmail()), blocked(uniqueEmail()));

    const response = await api.get('/bounces/summary');

    expect(response.body.by_category.sender_blocked).toBe(6);
    expect(response.body.outcomes_by_category.sender_blocked).toEqual({
      ...NO_OUTCOMES,
      suppressed: 2,
      already_suppressed: 1,
      allowlisted: 1,
      not_suppressed: 2,
    });
    expect(response.body.outcomes_by_category.invalid_address).toEqual(NO_OUTCOMES);
  });

  it('when no period is asked for, then it covers the last 24 hours', async () => {
    const { api, accountId } = await newApiAccount(app);
    await bounceRecord(
      accountId,
      'a@example.org',
      'invalid_address',
      'user_unknown',
      new Date(Date.now() - 3_600_000).toISOString(),
    );
    await bounceRecord(
      accountId,
      'b@example.org',
      'invalid_address',
      'user_unknown',
      new Date(Date.now() - 30 * 3_600_000).toISOString(),
    );

    const response = await api.get('/bounces/summary');

    expect(response.status).toBe(200);
    expect(Date.parse(response.body.until) - Date.parse(response.body.since)).toBe(24 * 3_600_000);
    expect(response.body.total).toBe(1);
    expect(response.body.by_reason).toEqual({ user_unknown: 1 });
    expect(response.body.by_day.length).toBeGreaterThanOrEqual(1);
  });

  it('when an account has no bounces, then every count is zero and every day of the period is listed', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.get('/bounces/summary?since=2026-11-01T00:00:00Z&until=2026-11-08T00:00:00Z');
    expect(response.body).toMatchObject({ total: 0, by_category: ZEROS, sender_blocked_share: 0, by_reason: {} });
    expect(response.body.sender_blocked_domains).toEqual([]);
    expect(response.body.by_day.map((day: { date: string }) => day.date)).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
    ]);
  });

  it('when more than ten domains refuse the sender, then the ten with the most bounces are listed', async () => {
    const { api, accountId } = await newApiAccount(app);
    for (let domain = 0; domain < 12; domain += 1) {
      for (let count = 0; count <= domain; count += 1) {
        await bounceRecord(
          accountId,
          `u${count}@d${domain}.example`,
          'sender_blocked',
          'blocklisted',
          '2026-11-22T10:00:00Z',
        );
      }
    }
    const response = await api.get('/bounces/summary?since=2026-11-22T00:00:00Z&until=2026-11-23T00:00:00Z');
    expect(response.body.sender_blocked_domains).toHaveLength(10);
    expect(response.body.sender_blocked_domains[0]).toEqual({ domain: 'd11.example', count: 12 });
    expect(response.body.sender_blocked_domains[9]).toEqual({ domain: 'd2.example', count: 3 });
  });

  it.each([
    ['since after until', 'since=2026-11-25T00:00:00Z&until=2026-11-24T00:00:00Z', '`since` must be before `until`.'],
    [
      'a period over 90 days',
      'since=2026-01-01T00:00:00Z&until=2026-11-24T00:00:00Z',
      '`since` must be at most 90 days before `until`.',
    ],
    ['a time that is not one', 'since=yesterday', '`since` must be an ISO 8601 timestamp, e.g. 2026-11-24T00:00:00Z.'],
    [
      'a time without its offset',
      'until=2026-11-24T00:00:00',
      '`until` must be an ISO 8601 timestamp, e.g. 2026-11-24T00:00:00Z.',
    ],
  ])('when the period is %s, then 422 says so', async (_what, query, message) => {
    const { api } = await newApiAccount(app);
    const response = await api.get(`/bounces/summary?${query}`);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });
});
