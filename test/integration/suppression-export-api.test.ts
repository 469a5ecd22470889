import { describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/suppressions/suppression.js';
import { newAccount, newKey } from '../support/accounts.js';
import { expectError, apiClient } from '../support/api-client.js';
import { uniqueEmails } from '../support/emails.js';
import { exportText } from '../support/export-text.js';
import { useTestApp } from '../support/test-app.js';

const app = useTestApp();

async function accountWith(entries: { email: string; origin: Origin }[]) {
  const account = await newAccount(app.database.db);
  await addSuppressions(
    app.database.db,
    account.accountId,
    entries.map(({ email, origin }) => ({
      id: newId(),
      email,
      origin,
      sourceId: origin === 'manual' ? null : newId(),
    })),
  );
  return account;
}

async function download(token: string, query: string): Promise<Response> {
  return fetch(`${app.server.url}/suppressions/export${query}`, { headers: { authorization: `Bearer ${token}` } });
}

describe('exporting the list over HTTP', () => {
  it('when the list is exported as CSV, then the file is an attachment and is exactly what `cli export` writes', async () => {
    const emails = uniqueEmails(3);
    const { accountId, token } = await accountWith(
      emails.map((email, index) => ({ email, origin: index === 1 ? 'bounce' : 'manual' })),
    );

    const response = await download(token, '?format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=suppressions.csv');
    const body = await response.text();
    expect(body).toBe((await exportText(app.database.db, accountId, 'csv')).text);
    expect(body.split('\n')[0]).toBe('id,email,origin,source_id,created_at,scope');
    expect(body.trim().split('\n')).toHaveLength(4);
  });

  it('when NDJSON of one origin is asked for, then each line is a Suppression of that origin, as the CLI writes them', async () => {
    const emails = uniqueEmails(4);
    const { accountId, token } = await accountWith(
      emails.map((email, index) => ({ email, origin: index % 2 ? 'complaint' : 'manual' })),
    );

    const response = await download(token, '?format=ndjson&origin=complaint');
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=suppressions.ndjson');
    const body = await response.text();
    expect(body).toBe((await exportText(app.database.db, accountId, 'ndjson', { origin: 'complaint' })).text);
    const lines = body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { origin: string; email: string });
    expect(lines.map((line) => line.origin)).toEqual(['complaint', 'complaint']);
  });

  it('when no format is given, then the file is CSV; an empty list is the header alone', async () => {
    const { token } = await accountWith([]);
    const response = await download(token, '');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe('id,email,origin,source_id,created_at,scope\n');
  });

  it('when a list is larger than a cursor batch, then every entry arrives, newest first', async () => {
    const emails = uniqueEmails(2500);
    const { accountId, token } = await accountWith(emails.map((email) => ({ email, origin: 'manual' })));

    const body = await (await download(token, '?format=ndjson')).text();
    const ids = body
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toHaveLength(2500);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(body).toBe((await exportText(app.database.db, accountId, 'ndjson')).text);
  });

  it('when the format or origin is unknown, then the answer is a 422 naming it', async () => {
    const { token } = await accountWith([]);
    const client = apiClient(app.server.url, token);
    const badFormat = await client.get('/suppressions/export?format=xml');
    expectError(badFormat, 422, 'validation_error');
    expect(badFormat.body.message).toBe('`format` must be one of csv, ndjson.');
    expectError(await client.get('/suppressions/export?origin=spam'), 422, 'validation_error');
  });

  it('when a sending_access key asks for the export, then it is refused and another account’s entries never show', async () => {
    const mine = await accountWith(uniqueEmails(1).map((email) => ({ email, origin: 'manual' })));
    const sending = await newKey(app.database.db, mine.account, 'sending_access');
    expectError(await apiClient(app.server.url, sending.token).get('/suppressions/export'), 401, 'restricted_api_key');

    const other = await accountWith([]);
    expect(await (await download(other.token, '')).text()).toBe('id,email,origin,source_id,created_at,scope\n');
  });

  it('when another method is used on the export, then it answers 405 with GET allowed', async () => {
    const { token } = await accountWith([]);
    const response = await apiClient(app.server.url, token).delete('/suppressions/export');
    expectError(response, 405, 'method_not_allowed');
  });
});
