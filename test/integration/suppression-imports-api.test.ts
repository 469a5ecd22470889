import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, expectError } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { useTestApp } from '../support/test-app.js';
import { useBatchWorkerBeside } from '../support/test-batch-worker.js';

const app = useTestApp({ queues: true });
const worker = useBatchWorkerBeside(app);

interface Upload {
  body: string | Buffer;
  query?: string;
  headers?: Record<string, string>;
}

async function upload(token: string, { body, query = '', headers = {} }: Upload) {
  const response = await fetch(`${app.server.url}/suppressions/imports${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function finished(token: string, id: string): Promise<Record<string, any>> {
  const api = apiClient(app.server.url, token);
  for (let waited = 0; waited < 20_000; waited += 50) {
    const { status, body } = await api.get(`/suppressions/imports/${id}`);
    expect(status).toBe(200);
    if (body.status === 'completed' || body.status === 'failed') return body;
    await sleep(50);
  }
  throw new Error(`import ${id} did not finish within 20 s`);
}

async function listed(token: string, origin?: string): Promise<Map<string, string>> {
  const api = apiClient(app.server.url, token);
  const { body } = await api.get(`/suppressions?limit=100${origin ? `&origin=${origin}` : ''}`);
  return new Map((body.data as { email: string; origin: string }[]).map((entry) => [entry.email, entry.origin]));
}

describe('importing a list over HTTP', () => {
  it('when a CSV with a header, a bad line and a repeat is posted, then it is queued, processed and reported line by line', async () => {
    const { token } = await newAccount(app.database.db);
    const emails = uniqueEmails(4500);
    const rows = ['Email,Name', ...emails.map((email, index) => `${email},person ${index}`)];
    rows.splice(3, 0, 'not-an-address,someone');
    rows.splice(5, 0, `${emails[0]?.toUpperCase()},again`);

    const accepted = await upload(token, { body: `${rows.join('\r\n')}\r\n` });

    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ object: 'import', status: expect.stringMatching(/processing|completed/) });
    const done = await finished(token, accepted.body['id']);
    expect(done).toMatchObject({
      object: 'import',
      id: accepted.body['id'],
      status: 'completed',
      origin: 'manual',
      format: 'csv',
      lines: 4503,
      invalid: 1,
      queued: 4500,
      duplicates: 1,
      processed: 4500,
      added: 4500,
      already_present: 0,
      jobs: 3,
      finished_jobs: 3,
      failed_jobs: 0,
      invalid_lines: [{ line: 4, value: 'not-an-address', reason: 'is not a valid email address' }],
      error: null,
    });
    expect(Date.parse(done['completed_at'])).toBeGreaterThanOrEqual(Date.parse(done['created_at']));
    const api = apiClient(app.server.url, token);
    expect((await api.get(`/suppressions/${emails[4499]}`)).body).toMatchObject({
      email: emails[4499],
      origin: 'manual',
    });
  });

  it('when a line holds NUL or bytes that are not UTF-8, then the import completes, that line is reported without what cannot be stored, and the rest are added', async () => {
    const { token } = await newAccount(app.database.db);
    const emails = uniqueEmails(3);
    const body = Buffer.concat([
      Buffer.from(`${emails[0]}\nbad\u0000@example.com\n`),
      Buffer.from([0x6f, 0xc0, 0xaf, 0x40, 0x78, 0x2e, 0x63, 0x6f, 0x0a]),
      Buffer.from(`${emails[1]}\n${emails[2]}\n`),
    ]);

    const accepted = await upload(token, { body });

    expect(accepted.status).toBe(202);
    const done = await finished(token, accepted.body['id']);
    expect(done).toMatchObject({ status: 'completed', lines: 5, invalid: 2, added: 3, failed_jobs: 0 });
    expect(done['invalid_lines']).toEqual([
      { line: 2, value: 'bad@example.com', reason: 'is not a valid email address' },
      { line: 3, value: 'o\ufffd\ufffd@x.co', reason: 'is not a valid email address' },
    ]);
    expect([...(await listed(token)).keys()].sort()).toEqual([...emails].sort());
  });

  it('when NDJSON is posted with an origin, then its type says the format and every entry gets that origin', async () => {
    const { token } = await newAccount(app.database.db);
    const [first, second] = uniqueEmails(2);
    const body = `${JSON.stringify({ email: first })}\n${JSON.stringify(second)}\n{"nope":1}\n`;

    const accepted = await upload(token, {
      body,
      query: '?origin=bounce',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    const done = await finished(token, accepted.body['id']);

    expect(done).toMatchObject({ status: 'completed', format: 'ndjson', origin: 'bounce', added: 2, invalid: 1 });
    expect(done['invalid_lines']).toEqual([
      { line: 3, reason: 'expected a JSON string or an object with an "email" string' },
    ]);
    expect(await listed(token)).toEqual(
      new Map([
        [first, 'bounce'],
        [second, 'bounce'],
      ]),
    );
  });

  it('when `format` is given, then it wins over the type; and a gzip body is decoded', async () => {
    const { token } = await newAccount(app.database.db);
    const emails = uniqueEmails(3);

    const accepted = await upload(token, {
      body: gzipSync(`${emails.join('\n')}\n`),
      query: '?format=txt&origin=complaint',
      headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' },
    });
    const done = await finished(token, accepted.body['id']);

    expect(done).toMatchObject({ status: 'completed', format: 'txt', lines: 3, added: 3 });
    expect([...(await listed(token, 'complaint')).keys()].sort()).toEqual([...emails].sort());
  });

  it('when the same list is posted twice, then the second import finds every address already present', async () => {
    const { token } = await newAccount(app.database.db);
    const body = `${uniqueEmails(10).join('\n')}\n`;

    await finished(token, (await upload(token, { body })).body['id']);
    const again = await finished(token, (await upload(token, { body })).body['id']);

    expect(again).toMatchObject({ status: 'completed', added: 0, already_present: 10 });
  });

  it('when a body declares more than 100 MB, then it is refused before any of it is read', async () => {
    const { accountId, token } = await newAccount(app.database.db);
    const { hostname, port } = new URL(app.server.url);

    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          hostname,
          port,
          method: 'POST',
          path: '/suppressions/imports',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'content-length': 101 * 2 ** 20 },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
      // Only the first line is ever sent: the answer must not wait for the rest.
      request.write('a@example.com\n');
    });

    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'payload_too_large' });
    const { rows } = await app.database.db.query({
      text: 'SELECT 1 FROM imports WHERE account_id = $1',
      values: [accountId],
    });
    expect(rows).toEqual([]);
  });

  it('when a small gzip body decodes past 100 MB, then the import stops with 413 and is recorded as failed', async () => {
    const { accountId, token } = await newAccount(app.database.db);
    // Lines of 60,000 characters, each under the line limit, 101 MB in all.
    const bomb = gzipSync(Buffer.from(`${'a'.repeat(59_999)}\n`.repeat(Math.ceil((101 * 2 ** 20) / 60_000))));

    const refused = await upload(token, {
      body: bomb,
      query: '?format=txt',
      headers: { 'content-encoding': 'gzip' },
    });

    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      statusCode: 413,
      name: 'payload_too_large',
      message: 'The request body is larger than the limit of 100mb.',
    });
    const { rows } = await app.database.db.query<{ status: string; error: string }>({
      text: 'SELECT status, error FROM imports WHERE account_id = $1',
      values: [accountId],
    });
    expect(rows).toEqual([{ status: 'failed', error: expect.stringContaining('larger than the limit of 100mb') }]);
  });

  it('when the upload is cut off half way, then the import is recorded as failed with the lines read so far', async () => {
    const { accountId, token } = await newAccount(app.database.db);
    const { hostname, port } = new URL(app.server.url);
    const request = http.request({
      hostname,
      port,
      method: 'POST',
      path: '/suppressions/imports?format=txt',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', 'content-length': 10_000_000 },
    });
    request.on('error', () => undefined);
    request.write(`${uniqueEmails(3).join('\n')}\n`);
    const failed = async () => {
      const { rows } = await app.database.db.query<{ status: string; error: string | null }>({
        text: 'SELECT status, error FROM imports WHERE account_id = $1',
        values: [accountId],
      });
      return rows[0];
    };
    for (let waited = 0; (await failed())?.status !== 'reading' && waited < 5000; waited += 20) await sleep(20);

    request.destroy();

    for (let waited = 0; (await failed())?.status === 'reading' && waited < 5000; waited += 20) await sleep(20);
    expect(await failed()).toEqual({
      status: 'failed',
      error: 'the upload ended before the list did; the lines read before were queued',
    });
  });

  it('when the body does not decode as its encoding says, then it is a 422 naming that', async () => {
    const { token } = await newAccount(app.database.db);

    const refused = await upload(token, { body: 'plainly not gzip', headers: { 'content-encoding': 'gzip' } });

    expect(refused.status).toBe(422);
    expect(refused.body['message']).toBe(
      'The request body could not be read: the body does not decode as its Content-Encoding says; the lines read before were queued.',
    );
  });

  it('when an import is refused part way through its body, then the next request on the connection is served', async () => {
    const { token } = await newAccount(app.database.db);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(app.server.url);
    const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request({ hostname, port, method, path, headers, agent }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      const notBrotli = Buffer.from(`${'x'.repeat(1_000_000)}\n`);
      const refused = await send(
        'POST',
        '/suppressions/imports',
        {
          authorization: `Bearer ${token}`,
          'content-type': 'text/plain',
          'content-encoding': 'br',
          'content-length': String(notBrotli.length),
        },
        notBrotli,
      );
      expect(refused.status).toBe(422);
      expect(JSON.parse(refused.text)).toMatchObject({
        message:
          'The request body could not be read: the body does not decode as its Content-Encoding says; the lines read before were queued.',
      });

      const next = await send('GET', '/suppressions', { authorization: `Bearer ${token}` });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('when the request is a form, names a type that is no list, an unknown encoding or a bad origin, then it is a 422 that says so', async () => {
    const { token } = await newAccount(app.database.db);
    const form = new FormData();
    form.append('file', new Blob(['a@example.com\n']), 'list.csv');
    const formResponse = await fetch(`${app.server.url}/suppressions/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(formResponse.status).toBe(422);
    expect(((await formResponse.json()) as { message: string }).message).toContain('not a form');

    const json = await upload(token, { body: '["a@example.com"]', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(422);
    expect(json.body['message']).toBe(
      '`Content-Type` "application/json" is not a list format: send text/csv, application/x-ndjson or text/plain, or give `format`.',
    );

    const encoding = await upload(token, { body: 'a@example.com', headers: { 'content-encoding': 'zstd' } });
    expect(encoding.body).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(encoding.body['message']).toContain('`Content-Encoding` "zstd" is not supported');

    const origin = await upload(token, { body: 'a@example.com', query: '?origin=spam' });
    expect(origin.body).toMatchObject({
      statusCode: 422,
      message: '`origin` must be one of bounce, complaint, manual.',
    });
    expect(await listed(token)).toEqual(new Map());
  });

  it('when an import is asked for by an unknown id, another account, or not an id, then it is 404 or 422', async () => {
    const owner = await newAccount(app.database.db);
    const other = await newAccount(app.database.db);
    const { body } = await upload(owner.token, { body: `${uniqueEmail()}\n` });

    const notFound = await apiClient(app.server.url, other.token).get(`/suppressions/imports/${body['id']}`);
    expectError(notFound, 404, 'not_found');
    expect(notFound.body.message).toBe('Import not found.');
    const unknown = await apiClient(app.server.url, owner.token).get(
      '/suppressions/imports/0190c7f6-0000-7000-8000-000000000000',
    );
    expectError(unknown, 404, 'not_found');
    const notAnId = await apiClient(app.server.url, owner.token).get('/suppressions/imports/nope');
    expectError(notAnId, 422, 'validation_error');
    expect(notAnId.body.message).toBe('`import` must be an import id (a UUID).');
  });

  it('when a sending_access key imports, then it is refused as restricted', async () => {
    const { account } = await newAccount(app.database.db);
    const sending = await newKey(app.database.db, account, 'sending_access');

    const refused = await upload(sending.token, { body: `${uniqueEmail()}\n` });

    expect(refused).toMatchObject({ status: 401, body: { name: 'restricted_api_key' } });
  });

  it('when a job ended without its end being recorded, then reading the import finds it in the queue and records it', async () => {
    const { token } = await newAccount(app.database.db);
    const id = (await upload(token, { body: `${uniqueEmails(5).join('\n')}\n` })).body['id'] as string;
    await finished(token, id);
    await app.database.db.query({
      text: `UPDATE import_jobs SET finished_at = NULL, added = NULL, already_present = NULL WHERE import_id = $1`,
      values: [id],
    });

    const { body } = await apiClient(app.server.url, token).get(`/suppressions/imports/${id}`);

    expect(body).toMatchObject({ status: 'completed', added: 5, processed: 5, finished_jobs: 1 });
  });

  it('when no worker runs, then the import is processing with nothing processed, and completes once one starts', async () => {
    await worker.stop();
    const { token } = await newAccount(app.database.db);
    const accepted = await upload(token, { body: `${uniqueEmails(3).join('\n')}\n` });
    const api = apiClient(app.server.url, token);

    expect((await api.get(`/suppressions/imports/${accepted.body['id']}`)).body).toMatchObject({
      status: 'processing',
      queued: 3,
      processed: 0,
      jobs: 1,
      finished_jobs: 0,
      completed_at: null,
    });
    await worker.start();
    expect(await finished(token, accepted.body['id'])).toMatchObject({ status: 'completed', added: 3 });
  });
});
