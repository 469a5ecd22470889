import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { newAccount, newKey } from '../support/accounts.js';
import { addInOrder, apiClient, expectError } from '../support/api-client.js';
import { uniqueEmails } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { unreachableDatabase } from '../support/unreachable.js';

const app = useTestApp({ redis: 'live' });

let unreachable: Database | undefined;
afterAll(async () => {
  await unreachable?.close();
});

describe('POST /suppressions/check', () => {
  it('when the addresses mix suppressed, unsuppressed, repeated and invalid ones, then each suppressed address is listed once in first-seen order and each invalid item by its index', async () => {
    const { api } = await newApiAccount(app);
    const [first, second, clean] = uniqueEmails(3);
    await addInOrder(api, [second!, first!]);

    const response = await api.post('/suppressions/check', {
      emails: [
        'not-an-address',
        first!.toUpperCase(),
        clean,
        ` ${second} `,
        first,
        '',
        second!.replace('user', 'USER'),
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: 'suppression_check', checked: 3 });
    expect(response.body.suppressed.map((entry: { email: string }) => entry.email)).toEqual([first, second]);
    expect(response.body.suppressed[0]).toEqual({
      object: 'suppression',
      id: expect.any(String),
      email: first,
      origin: 'manual',
      source_id: null,

      scope: null,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(response.body.invalid).toEqual([
      { index: 0, email: 'not-an-address', reason: 'is not a valid email address' },
      { index: 5, email: '', reason: 'is empty' },
    ]);
  });

  it('when a sending_access key asks, then it is answered, and the same key still may not read the list', async () => {
    const full = await newApiAccount(app);
    const sending = await newKey(app.database.db, full.account, 'sending_access');
    const [suppressed] = uniqueEmails(1);
    await addInOrder(full.api, [suppressed!]);
    const sender = apiClient(app.server.url, sending.token);

    const check = await sender.post('/suppressions/check', { emails: [suppressed] });
    expect(check.status).toBe(200);
    expect(check.body.suppressed).toHaveLength(1);
    expectError(await sender.get('/suppressions'), 401, 'restricted_api_key');
    expectError(await sender.get(`/suppressions/${suppressed}`), 401, 'restricted_api_key');
  });

  it('when another account has suppressed the addresses, then they are not suppressed for this one', async () => {
    const owner = await newApiAccount(app);
    const other = await newApiAccount(app);
    const emails = uniqueEmails(2);
    await addInOrder(owner.api, emails);
    const response = await other.api.post('/suppressions/check', { emails });
    expect(response.body).toEqual({ object: 'suppression_check', checked: 2, suppressed: [], invalid: [] });
  });

  it('when 1,000 addresses are sent, then they are all checked; when 1,001, then it answers 422 naming emails', async () => {
    const { api } = await newApiAccount(app);
    const emails = uniqueEmails(1001);
    await api.post('/suppressions/batch/add', { emails: emails.slice(990, 1000) });

    const thousand = await api.post('/suppressions/check', { emails: emails.slice(0, 1000) });
    expect(thousand.status).toBe(200);
    expect(thousand.body.checked).toBe(1000);
    expect(thousand.body.suppressed.map((entry: { email: string }) => entry.email)).toEqual(emails.slice(990, 1000));

    const tooMany = await api.post('/suppressions/check', { emails });
    expectError(tooMany, 422, 'validation_error');
    expect(tooMany.body.message).toBe('`emails` must have at most 1000 items.');
  });

  it.each([
    [{}, '`emails` must be an array of 1 to 1000 items.'],
    [{ emails: [] }, '`emails` must have at least 1 item.'],
    [{ emails: ['a@example.com', 7] }, '`emails[1]` must be a string.'],
    [{ emails: 'a@example.com' }, '`emails` must be an array of 1 to 1000 items.'],
  ])('when the body is %j, then it answers 422 and says what is wrong', async (body, message) => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/suppressions/check', body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe(message);
  });

  it('when it is called with GET, then it answers 405 with Allow: POST', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.get('/suppressions/check');
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('when PostgreSQL cannot answer, then it answers 503, never a partial or empty list', async () => {
    unreachable = await unreachableDatabase({ connectTimeoutMs: 500 });
    const down = await app.startApp({ db: unreachable });
    const { token } = await newAccount(app.database.db);
    // The key is looked up on the unreachable database too: the answer is 503 either way, never a 200.
    const response = await apiClient(down.url, token).post('/suppressions/check', { emails: uniqueEmails(3) });
    expectError(response, 503, 'service_unavailable');
  });

  it('when the account may make one request a second, then a check of 1,000 addresses is that one request', async () => {
    const slow = await app.startApp({ redis: 'live', rateLimitPerSecond: 1 });
    const { api } = await newApiAccount(app, slow);
    expect((await api.post('/suppressions/check', { emails: uniqueEmails(1000) })).status).toBe(200);
    expectError(await api.post('/suppressions/check', { emails: uniqueEmails(1) }), 429, 'rate_limit_exceeded');
  });
});
