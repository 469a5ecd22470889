import { describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
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

describe('a CSV for a spreadsheet', () => {
  // Addresses and a scope that the validators accept and whose first character starts a spreadsheet
  // formula, oldest first, and a plain address last.
  const ENTRIES = [
    { email: '=1+1@example.com' },
    { email: '+sum@example.com', scope: '-promo' },
    { email: '-2+3@example.com' },
    { email: 'jane@example.com' },
  ];

  /** Adds the entries through the API (and so through its validators), and lists them as the API shows them, newest first. */
  async function addedThroughApi(entries: { email: string; scope?: string }[]) {
    const account = await newAccount(app.database.db);
    const client = apiClient(app.server.url, account.token);
    for (const entry of entries) expect((await client.post('/suppressions', entry)).status).toBe(201);
    const listed = await client.get<{
      data: { id: string; email: string; created_at: string; scope: string | null }[];
    }>('/suppressions?limit=100');
    expect(listed.body.data.map((entry) => entry.email)).toEqual(entries.map((entry) => entry.email).reverse());
    return { token: account.token, newestFirst: listed.body.data };
  }

  it('when entries begin with =, + or - and no escaping is asked, then the CSV holds them byte for byte as stored', async () => {
    const { token, newestFirst } = await addedThroughApi(ENTRIES);
    const expected =
      'id,email,origin,source_id,created_at,scope\n' +
      newestFirst
        .map((entry) => `${entry.id},${entry.email},manual,,${entry.created_at},${entry.scope ?? ''}\n`)
        .join('');

    expect(await (await download(token, '?format=csv')).text()).toBe(expected);
    expect(await (await download(token, '?format=csv&escape_formulas=false')).text()).toBe(expected);
  });

  it("when escape_formulas=true, then each cell that begins with =, + or - gets a ' in front and is quoted, and the rest is unchanged", async () => {
    const { token, newestFirst } = await addedThroughApi(ENTRIES);
    const [jane, minus, plus, equals] = newestFirst;

    const response = await download(token, '?format=csv&escape_formulas=true');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=suppressions.csv');
    expect(await response.text()).toBe(
      'id,email,origin,source_id,created_at,scope\n' +
        `${jane!.id},jane@example.com,manual,,${jane!.created_at},\n` +
        `${minus!.id},"'-2+3@example.com",manual,,${minus!.created_at},\n` +
        `${plus!.id},"'+sum@example.com",manual,,${plus!.created_at},"'-promo"\n` +
        `${equals!.id},"'=1+1@example.com",manual,,${equals!.created_at},\n`,
    );
  });

  it('when escape_formulas is neither true nor false, then the answer is a 422 naming it', async () => {
    const { token } = await accountWith([]);
    const client = apiClient(app.server.url, token);
    for (const value of ['yes', '1', 'TRUE', '']) {
      const response = await client.get(`/suppressions/export?escape_formulas=${value}`);
      expectError(response, 422, 'validation_error');
      expect(response.body.message).toBe('`escape_formulas` must be `true` or `false`.');
    }
  });

  it('when escape_formulas=true is asked of an NDJSON export, then it is refused with a 422, and false is accepted', async () => {
    const { token } = await accountWith([]);
    const client = apiClient(app.server.url, token);

    const refused = await client.get('/suppressions/export?format=ndjson&escape_formulas=true');
    expectError(refused, 422, 'validation_error');
    expect(refused.body.message).toBe('`escape_formulas` is only for `format=csv`.');
    const plain = await download(token, '?format=ndjson&escape_formulas=false');
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe('');
  });
});
