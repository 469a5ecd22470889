import { describe, expect, it } from 'vitest';
import {
  CLASSIFY_BODY_LIMIT_MIB,
  CLASSIFY_FIELD_LENGTHS as LENGTHS,
  MAX_CLASSIFY_ITEMS as CLASSIFY_LIMIT,
} from '../../src/contract/limits.js';
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

/** Every character of the text (all of the Basic Multilingual Plane) as JSON's six-byte escape: the most bytes a string can take. */
const escaped = (text: string): string =>
  [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Text of exactly `length` units, the given words first. */
const filled = (words: string, length: number): string => `${words} ${'é'.repeat(length)}`.slice(0, length);

/**
 * `count` bounces at the documented maximum, as a client writing indented JSON with every character
 * escaped sends them: each field at its longest, the diagnostics alternately an unknown user and a
 * block listing.
 */
function largestBody(count: number): string {
  const field = (name: keyof typeof LENGTHS, words: string) =>
    `      "${name}": "${escaped(filled(words, LENGTHS[name]))}"`;
  const bounce = (status: string, diagnostic: string) =>
    [
      '    {',
      [
        field('status', status),
        field('reply_code', '550'),
        field('diagnostic', diagnostic),
        field('type', 'permanent'),
        field('sub_type', 'General'),
        field('provider', 'postmark'),
        field('remote_mta', 'mx.example.com'),
      ].join(',\n'),
      '    }',
    ].join('\n');
  // Each of the two bounces is written once: the body is their copies, made in milliseconds.
  const pair = [bounce('5.1.1', UNKNOWN_USER), bounce('5.7.1', SPAMHAUS)];
  const bounces = Array.from({ length: count }, (_, index) => pair[index % 2]);
  return `{\n  "bounces": [\n${bounces.join(',\n')}\n  ]\n}`;
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

  it(`when ${CLASSIFY_LIMIT.toLocaleString('en')} bounces carry every field at its longest, indented and every character escaped, then the body is read and every bounce answered`, async () => {
    const rawBody = largestBody(CLASSIFY_LIMIT);
    const { api } = await newApiAccount(app);
    expect(Buffer.byteLength(rawBody)).toBeGreaterThan(14 * 2 ** 20);
    expect(Buffer.byteLength(rawBody)).toBeLessThanOrEqual(CLASSIFY_BODY_LIMIT_MIB * 2 ** 20);

    const response = await api.request('POST', '/bounces/classify', { rawBody });

    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(CLASSIFY_LIMIT);
    expect(response.body.data[0]).toMatchObject({ category: 'invalid_address', reason: 'user_unknown' });
    expect(response.body.data[CLASSIFY_LIMIT - 1]).toMatchObject({ category: 'sender_blocked', reason: 'blocklisted' });
  });

  it(`when the body is one byte over ${CLASSIFY_BODY_LIMIT_MIB} MB, then it answers 413 naming the limit`, async () => {
    const limit = CLASSIFY_BODY_LIMIT_MIB * 2 ** 20;
    const frame = '{"bounces":[{}],"padding":""}';
    const rawBody = frame.replace('""', `"${'x'.repeat(limit + 1 - frame.length)}"`);
    const { api } = await newApiAccount(app);
    expect(Buffer.byteLength(rawBody)).toBe(limit + 1);

    const response = await api.request('POST', '/bounces/classify', { rawBody });

    expectError(response, 413, 'payload_too_large');
    expect(response.body.message).toBe(`The request body is larger than the limit of ${CLASSIFY_BODY_LIMIT_MIB}mb.`);
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
