import { describe, expect, it } from 'vitest';
import { MAX_CLASSIFY_ITEMS as CLASSIFY_LIMIT } from '../../src/contract/limits.js';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

const SPAMHAUS = '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org';
const UNKNOWN_USER = '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown';

const BOUNCES = [
  { diagnostic: SPAMHAUS, type: 'permanent' },
  { status: '5.1.1', reply_code: 550 },
  { sub_type: 'Suppressed', provider: 'ses', type: 'Permanent' },
  { reply_code: '552' },
  {},
];

const classify = (api: ApiClient, bounces: unknown) => api.post('/bounces/classify', { bounces });
const actionsOf = (response: { body: { data: { action: string }[] } }) => response.body.data.map((item) => item.action);

async function recordsOf(accountId: string): Promise<number> {
  const { rows } = await app.database.db.query<{ count: number }>({
    text: `SELECT (SELECT count(*) FROM suppression_events WHERE account_id = $1)
                + (SELECT count(*) FROM suppressions WHERE account_id = $1) AS count`,
    values: [accountId],
  });
  return Number(rows[0]?.count);
}

describe('POST /bounces/classify', () => {
  it('when bounces are asked about, then each gets its category, reason, rule and the account’s action, in order, and nothing is written', async () => {
    const { api, accountId } = await newApiAccount(app);

    const response = await classify(api, BOUNCES);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'list',
      data: [
        {
          object: 'bounce_classification',
          category: 'sender_blocked',
          reason: 'blocklisted',
          rule: 'text:client host ... blocked',
          action: 'record',
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
          action: 'record',
        },
        {
          object: 'bounce_classification',
          category: 'mailbox_unavailable',
          reason: 'mailbox_full',
          rule: 'reply:552',
          action: 'count',
        },
        { object: 'bounce_classification', category: 'unknown', reason: 'unclassified', rule: 'none', action: 'count' },
      ],
    });
    expect(await recordsOf(accountId)).toBe(0);
  });

  it('when the account’s bounce actions are PATCHed, then the next answers give the new actions', async () => {
    const { api } = await newApiAccount(app);
    expect(actionsOf(await classify(api, BOUNCES))).toEqual(['record', 'suppress', 'record', 'count', 'count']);

    const patched = await api.request('PATCH', '/settings/suppressions', {
      body: { bounce_actions: { sender_blocked: 'suppress', mailbox_unavailable: 'record', unknown: 'record' } },
    });
    expect(patched.status).toBe(200);

    expect(actionsOf(await classify(api, BOUNCES))).toEqual(['suppress', 'suppress', 'suppress', 'record', 'record']);
  });

  it('when a sending key asks, then it is answered; when it asks for the summary or a reclassification, then 401 restricted_api_key', async () => {
    const { account } = await newApiAccount(app);
    const key = await newKey(app.database.db, account, 'sending_access');
    const sending = apiClient(app.server.url, key.token);

    const answer = await classify(sending, [{ diagnostic: UNKNOWN_USER }]);
    expect(answer.status).toBe(200);
    expect(answer.body.data[0]).toMatchObject({ category: 'invalid_address', action: 'suppress' });
    expectError(await sending.get('/bounces/summary'), 401, 'restricted_api_key');
    expectError(await sending.post('/bounces/reclassifications', { dry_run: true }), 401, 'restricted_api_key');
    expectError(await sending.get(`/bounces/reclassifications/${crypto.randomUUID()}`), 401, 'restricted_api_key');
  });

  it(`when ${CLASSIFY_LIMIT.toLocaleString('en')} bounces are asked about at once, then all are answered, in order`, async () => {
    const { api } = await newApiAccount(app);
    const bounces = Array.from({ length: CLASSIFY_LIMIT }, (_, index) =>
      index % 2 === 0 ? { diagnostic: UNKNOWN_USER } : { diagnostic: SPAMHAUS },
    );
    const response = await classify(api, bounces);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(CLASSIFY_LIMIT);
    expect(response.body.data[998].category).toBe('invalid_address');
    expect(response.body.data[999].category).toBe('sender_blocked');
  });

  it.each([
    ['no bounces', { bounces: [] }, '`bounces` must hold at least one bounce.'],
    [
      '1,001 bounces',
      { bounces: Array.from({ length: 1001 }, () => ({})) },
      '`bounces` must hold at most 1,000 bounces.',
    ],
    ['no list', {}, '`bounces` must be a list of bounces.'],
    ['a list that is not one', { bounces: 'x' }, '`bounces` must be a list of bounces.'],
    ['a bounce that is not an object', { bounces: ['550 user unknown'] }, '`bounces[0]` must be an object.'],
    ['a field of the wrong type', { bounces: [{ status: 511 }] }, '`bounces[0].status` must be a string.'],
    [
      'a reply code that is neither',
      { bounces: [{ reply_code: true }] },
      '`bounces[0].reply_code` must be a string or a whole number.',
    ],
    [
      'a status too long',
      { bounces: [{ status: '5'.repeat(33) }] },
      '`bounces[0].status` must be at most 32 characters.',
    ],
  ])('when the body has %s, then 422 names what is wrong', async (_what, body, message) => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/bounces/classify', body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });

  it('when the body is not an object, then 422', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.post('/bounces/classify', [1, 2]), 422, 'validation_error');
  });

  it('when a diagnostic is longer than 2,000 characters, then it is cut, not refused', async () => {
    const { api } = await newApiAccount(app);
    const response = await classify(api, [{ diagnostic: `${'x '.repeat(1500)}user unknown` }]);
    expect(response.status).toBe(200);
    // The words past the 2,000th character are not read.
    expect(response.body.data[0].category).toBe('unknown');
  });

  it('when classify is called with another method, then 405', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.get('/bounces/classify'), 405, 'method_not_allowed');
  });
});
