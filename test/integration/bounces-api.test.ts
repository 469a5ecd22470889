import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSIFIER_VERSION } from '../../src/bounces/classify-bounce.js';
import { updateSettings } from '../../src/db/settings-repository.js';
import { addSuppressions } from '../../src/db/suppression-repository.js';
import { createWebhook } from '../../src/db/webhook-repository.js';
import { newId } from '../../src/domain/ids.js';
import { createLogger } from '../../src/logger.js';
import { startMaintenanceWorker, type MaintenanceWorker } from '../../workers/maintenance-worker.js';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { eventually } from '../support/test-queue.js';

const app = useTestApp({ queues: true });
let worker: MaintenanceWorker;

beforeAll(() => {
  worker = startMaintenanceWorker({
    db: app.database.db,
    logger: createLogger('silent'),
    connection: app.maintenance.connection,
    prefix: app.maintenance.prefix,
    expiryEveryMs: 3_600_000,
  });
});
afterAll(async () => {
  await worker.close();
});

const SPAMHAUS = '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org';
const UNKNOWN_USER = '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown';

describe('POST /bounces/classify', () => {
  it('when bounces are asked about, then each gets its category, reason, rule and the account’s action, in order, and nothing is written', async () => {
    const { api, accountId } = await newApiAccount(app);
    await updateSettings(app.database.db, accountId, { bounce_actions: { sender_blocked: 'count' } });

    const response = await api.post('/bounces/classify', {
      bounces: [
        { diagnostic: SPAMHAUS, type: 'permanent' },
        { status: '5.1.1', reply_code: 550 },
        { sub_type: 'Suppressed', provider: 'ses', type: 'Permanent' },
        {},
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'list',
      data: [
        {
          object: 'bounce_classification',
          category: 'sender_blocked',
          reason: 'blocklisted',
          rule: 'text:client host ... blocked',
          action: 'count',
        },
        {
          object: 'bounce_classification',
          category: 'invalid_address',
          reason: 'user_unknown',
          rule: 'status:X.1.1',
          action: 'suppress',
        },
        {
          object: 'bounce_classification',
          category: 'sender_blocked',
          reason: 'provider_suppressed',
          rule: 'echo:suppressed',
          action: 'count',
        },
        { object: 'bounce_classification', category: 'unknown', reason: 'unclassified', rule: 'none', action: 'count' },
      ],
    });
    const { rows } = await app.database.db.query({
      text: 'SELECT 1 FROM suppression_events WHERE account_id = $1',
      values: [accountId],
    });
    expect(rows).toHaveLength(0);
  });

  it('when a sending key asks, then it is answered; when it asks for the summary or a reclassification, then 401 restricted_api_key', async () => {
    const { account } = await newApiAccount(app);
    const key = await newKey(app.database.db, account, 'sending_access');
    const sending = apiClient(app.server.url, key.token);

    expect((await sending.post('/bounces/classify', { bounces: [{ diagnostic: UNKNOWN_USER }] })).status).toBe(200);
    expectError(await sending.get('/bounces/summary'), 401, 'restricted_api_key');
    expectError(await sending.post('/bounces/reclassifications', { dry_run: true }), 401, 'restricted_api_key');
  });

  it.each([
    ['no bounces', { bounces: [] }, '`bounces` must hold at least one bounce.'],
    [
      '1,001 bounces',
      { bounces: Array.from({ length: 1001 }, () => ({})) },
      '`bounces` must hold at most 1,000 bounces.',
    ],
    ['a list that is not one', { bounces: 'x' }, '`bounces` must be a list of bounces.'],
    ['a field of the wrong type', { bounces: [{ status: 511 }] }, '`bounces[0].status` must be a string.'],
  ])('when the body has %s, then 422 names what is wrong', async (_what, body, message) => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/bounces/classify', body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });

  it('when a diagnostic is longer than 2,000 characters, then it is cut, not refused', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/bounces/classify', {
      bounces: [{ diagnostic: `${'x '.repeat(1500)}user unknown` }],
    });
    expect(response.status).toBe(200);
    expect(response.body.data[0].category).toBe('unknown');
  });
});

/** An entry of origin `bounce` with its bounce record, written as the event path wrote it before the classifier. */
async function legacyBounceEntry(accountId: string, email: string, diagnostic: string, hoursAgo = 1): Promise<string> {
  const [entry] = await addSuppressions(app.database.db, accountId, [
    { id: newId(), email, origin: 'bounce', sourceId: randomUUID() },
  ]);
  await app.database.db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, source_id, bounce_type, bounce_diagnostic,
             suppression_id, outcome, occurred_at, received_at)
           VALUES ($1, $2, 'bounce', $3, $4, 'permanent', $5, $6, 'suppressed', now() - $7 * interval '1 hour', now() - $7 * interval '1 hour')`,
    values: [accountId, `evt-${randomUUID()}`, email, randomUUID(), diagnostic, entry!.id, hoursAgo],
  });
  return entry!.id;
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
    const blockedId = await legacyBounceEntry(accountId, blocked, SPAMHAUS);
    await legacyBounceEntry(accountId, dead, UNKNOWN_USER);
    await addSuppressions(app.database.db, accountId, [
      { id: newId(), email: complained, origin: 'complaint', sourceId: null },
      { id: newId(), email: manual, origin: 'manual', sourceId: null },
      { id: newId(), email: imported, origin: 'bounce', sourceId: null },
    ]);
    // A complaint's entry keeps its block-list bounce too: the bounce is not its only evidence.
    await legacyBounceEntry(accountId, uniqueEmail(), SPAMHAUS).then(async (id) => {
      await app.database.db.query({
        text: `INSERT INTO suppression_events (account_id, event_id, type, email, source_id, complaint_feedback_type, suppression_id, outcome, occurred_at)
               SELECT account_id, 'complaint-' || id, 'complaint', email, source_id, 'abuse', id, 'already_suppressed', now() FROM suppressions WHERE id = $1`,
        values: [id],
      });
    });
    const before = await listed(accountId);

    const dry = await api.post('/bounces/reclassifications', { dry_run: true });
    expect(dry.status).toBe(202);
    expect(dry.body).toMatchObject({
      object: 'bounce_reclassification',
      status: 'queued',
      dry_run: true,
      classifier_version: CLASSIFIER_VERSION,
    });
    const dryRun = await settledRun(api, dry.body.id);
    expect(dryRun).toMatchObject({
      status: 'completed',
      entries_total: 4,
      entries_examined: 4,
      entries_without_evidence: 1,
      lifted: 1,
      lifted_by_category: { sender_blocked: 1 },
      records_by_category: { sender_blocked: 2, invalid_address: 1 },
    });
    expect(await listed(accountId)).toEqual(before);

    const real = await api.post('/bounces/reclassifications', { dry_run: false });
    const run = await settledRun(api, real.body.id);
    expect(run).toMatchObject({
      status: 'completed',
      dry_run: false,
      lifted: 1,
      lifted_by_category: { sender_blocked: 1 },
    });
    expect(await listed(accountId)).toEqual(before.filter((email) => email !== blocked));
    const history = await api.get(`/suppressions/${encodeURIComponent(blocked)}/events`);
    expect(history.body.data[0]).toMatchObject({
      type: 'removal',
      removal_reason: 'reclassified',
      suppression_id: blockedId,
    });
    const { rows } = await app.database.db.query<{ suppression_id: string }>({
      text: `SELECT suppression_id FROM suppression_changes WHERE account_id = $1 AND type = 'suppression.removed'`,
      values: [accountId],
    });
    expect(rows.map((row) => row.suppression_id)).toEqual([blockedId]);
  });

  it('when the body is not a boolean dry_run, then 422; when the id is not one of the account’s, then 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.post('/bounces/reclassifications', { dry_run: 'yes' }), 422, 'validation_error');
    expectError(await api.post('/bounces/reclassifications', { apply: true }), 422, 'validation_error');
    expectError(await api.get('/bounces/reclassifications/not-an-id'), 422, 'validation_error');
    expectError(await api.get(`/bounces/reclassifications/${newId()}`), 404, 'not_found');
    const other = await newApiAccount(app);
    const theirs = await other.api.post('/bounces/reclassifications', {});
    expect(theirs.body.dry_run).toBe(true);
    expectError(await api.get(`/bounces/reclassifications/${theirs.body.id}`), 404, 'not_found');
  });
});

describe('GET /bounces/summary', () => {
  it('when an account had bounces, then it counts them by category, reason, day and the domains refusing the sender', async () => {
    const { api: owner, accountId: id } = await newApiAccount(app);
    const rows: [string, string, string, string, number][] = [
      ['a@outlook.com', 'sender_blocked', 'blocklisted', 'text:blocked using', 2],
      ['b@outlook.com', 'sender_blocked', 'blocklisted', 'text:blocked using', 2],
      ['c@gmail.com', 'sender_blocked', 'bad_reputation', 'text:reputation', 2],
      ['d@example.org', 'invalid_address', 'user_unknown', 'text:user unknown', 30],
    ];
    for (const [email, category, reason, rule, hoursAgo] of rows) {
      await app.database.db.query({
        text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_category, bounce_reason, bounce_rule,
                 classifier_version, outcome, occurred_at, received_at)
               VALUES ($1, $2, 'bounce', $3, 'permanent', $4, $5, $6, '1.test', 'not_suppressed', now(), now() - $7 * interval '1 hour')`,
        values: [id, `evt-${randomUUID()}`, email, category, reason, rule, hoursAgo],
      });
    }

    const day = await owner.get('/bounces/summary');
    expect(day.status).toBe(200);
    expect(day.body).toMatchObject({
      object: 'bounce_summary',
      total: 3,
      by_category: {
        invalid_address: 0,
        mailbox_unavailable: 0,
        sender_blocked: 3,
        delivery_failure: 0,
        auto_reply: 0,
        unknown: 0,
      },
      sender_blocked_share: 1,
      by_reason: { blocklisted: 2, bad_reputation: 1 },
      sender_blocked_domains: [
        { domain: 'outlook.com', count: 2 },
        { domain: 'gmail.com', count: 1 },
      ],
    });
    const since = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString();
    const week = await owner.get(`/bounces/summary?since=${encodeURIComponent(since)}`);
    expect(week.body.total).toBe(4);
    expect(week.body.by_day).toHaveLength(4);
    expect(
      week.body.by_day.reduce(
        (sum: number, entry: any) => sum + entry.counts.sender_blocked + entry.counts.invalid_address,
        0,
      ),
    ).toBe(4);
  });

  it.each([
    ['since after until', 'since=2026-11-25T00:00:00Z&until=2026-11-24T00:00:00Z', '`since` must be before `until`.'],
    [
      'a period over 90 days',
      'since=2026-01-01T00:00:00Z&until=2026-11-24T00:00:00Z',
      '`since` must be at most 90 days before `until`.',
    ],
    ['a time that is not one', 'since=yesterday', '`since` must be an ISO 8601 timestamp, e.g. 2026-11-24T00:00:00Z.'],
  ])('when the period is %s, then 422 says so', async (_what, query, message) => {
    const { api } = await newApiAccount(app);
    const response = await api.get(`/bounces/summary?${query}`);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });
});
