import { beforeAll, describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { addInOrder, type ApiClient } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

describe('success codes and shapes', () => {
  it('when one address is added, then it answers 201 with the new id', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const response = await api.post('/suppressions', { email });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ object: 'suppression', id: expect.stringMatching(UUID_V7) });
  });

  it('when an entry is retrieved, then it has the full Suppression shape with created_at in milliseconds', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const { body: added } = await api.post('/suppressions', { email });
    const response = await api.get(`/suppressions/${added.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      object: 'suppression',
      id: added.id,
      email,
      origin: 'manual',
      source_id: null,

      scope: null,
      created_at: expect.stringMatching(ISO_MS),
    });
  });

  it('when a batch is added, then it answers 201 and when it is removed, 200', async () => {
    const { api } = await newApiAccount(app);
    const emails = uniqueEmails(3);
    const added = await api.post('/suppressions/batch/add', { emails });
    expect(added.status).toBe(201);
    expect(added.body.data).toHaveLength(3);
    const removed = await api.post('/suppressions/batch/remove', { emails });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      data: added.body.data.map(({ id }: { id: string }) => ({ object: 'suppression', id, deleted: true })),
    });
  });

  it('when an entry is deleted, then it answers 200 with deleted true and is gone', async () => {
    const { api } = await newApiAccount(app);
    const [id] = await addInOrder(api, [uniqueEmail()]);
    const response = await api.delete(`/suppressions/${id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ object: 'suppression', id, deleted: true });
    expect((await api.get(`/suppressions/${id}`)).status).toBe(404);
  });

  it('when the list is read, then every entry has the full shape and the envelope is a list', async () => {
    const { api } = await newApiAccount(app);
    await addInOrder(api, uniqueEmails(2));
    const response = await api.get('/suppressions');
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.has_more).toBe(false);
    for (const entry of response.body.data) {
      expect(Object.keys(entry).sort()).toEqual([
        'created_at',
        'email',
        'id',
        'object',
        'origin',
        'scope',
        'source_id',
      ]);
      expect(entry.object).toBe('suppression');
      expect(entry.created_at).toMatch(ISO_MS);
    }
  });
});

describe('email normalisation', () => {
  it('when an address is added with spaces and capitals, then it is stored trimmed and lower-cased', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const { body } = await api.post('/suppressions', { email: `  ${email.toUpperCase()} ` });
    const entry = await api.get(`/suppressions/${body.id}`);
    expect(entry.body.email).toBe(email);
  });

  it('when an address is looked up in another case, then it is found', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const { body } = await api.post('/suppressions', { email });
    const response = await api.get(`/suppressions/${encodeURIComponent(email.toUpperCase())}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(body.id);
  });

  it('when an address is longer than 254 characters, then it is refused', async () => {
    const { api } = await newApiAccount(app);
    const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.com`;
    expect(email.length).toBeGreaterThan(254);
    const response = await api.post('/suppressions/batch/add', { emails: [email] });
    expect(response.status).toBe(422);
    expect(response.body.name).toBe('validation_error');
  });
});

describe('the {suppression} path parameter', () => {
  it('when it is a UUID, then it is an id, in any case', async () => {
    const { api } = await newApiAccount(app);
    const [id] = await addInOrder(api, [uniqueEmail()]);
    const response = await api.get(`/suppressions/${id!.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(id);
  });

  it('when it is a plus address, then the + is literal, raw or percent-encoded', async () => {
    const { api } = await newApiAccount(app);
    const tag = newId().slice(-12);
    const email = `first+${tag}@example.com`;
    const [id] = await addInOrder(api, [email]);
    expect((await api.get(`/suppressions/first+${tag}@example.com`)).body.id).toBe(id);
    expect((await api.get(`/suppressions/${encodeURIComponent(email)}`)).body.id).toBe(id);
    // A space is not a plus: the address without the plus is another one.
    expect((await api.get(`/suppressions/first%20${tag}@example.com`)).status).toBe(422);
  });

  it('when the encoding is malformed, then it answers 422, not 500', async () => {
    const { api } = await newApiAccount(app);
    for (const path of ['/suppressions/%E0%A4%A', '/suppressions/abc%', '/suppressions/%zz@example.com']) {
      const response = await api.get(path);
      expect(response.status).toBe(422);
      expect(response.body.name).toBe('validation_error');
    }
  });

  it('when it is neither an id nor an address, then it answers 422', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.delete('/suppressions/not-an-address');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ statusCode: 422, name: 'validation_error', message: expect.any(String) });
  });

  it('when an entry is removed by email, then the response carries its id', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const [id] = await addInOrder(api, [email]);
    const response = await api.delete(`/suppressions/${encodeURIComponent(email)}`);
    expect(response.body).toEqual({ object: 'suppression', id, deleted: true });
  });
});

describe('adding what is already there', () => {
  it('when an address is added again, then it keeps its id, origin and created_at', async () => {
    const { api, accountId } = await newApiAccount(app);
    const email = uniqueEmail();
    const [first] = await addSuppressions(app.database.db, accountId, [
      { id: newId(), email, origin: 'bounce', sourceId: newId() },
    ]);
    const before = (await api.get(`/suppressions/${first!.id}`)).body;
    const again = await api.post('/suppressions/batch/add', { emails: [email] });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual([{ object: 'suppression', id: first!.id }]);
    const single = await api.post('/suppressions', { email: email.toUpperCase() });
    expect(single.body.id).toBe(first!.id);
    expect((await api.get(`/suppressions/${first!.id}`)).body).toEqual(before);
  });

  it('when a batch repeats an address in other forms, then it is listed once, in first-seen order', async () => {
    const { api } = await newApiAccount(app);
    const [a, b, c] = uniqueEmails(3);
    const response = await api.post('/suppressions/batch/add', {
      emails: [b, ` ${a!.toUpperCase()}`, b!.toUpperCase(), a, c],
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toHaveLength(3);
    const emails = await Promise.all(
      response.body.data.map(async ({ id }: { id: string }) => (await api.get(`/suppressions/${id}`)).body.email),
    );
    expect(emails).toEqual([b, a, c]);
  });

  it('when one item of a batch is invalid, then nothing is written and the message names its index', async () => {
    const { api } = await newApiAccount(app);
    const good = uniqueEmail();
    const response = await api.post('/suppressions/batch/add', { emails: [good, 'bad-address'] });
    expect(response.status).toBe(422);
    expect(response.body.message).toContain('emails[1]');
    expect((await api.get(`/suppressions/${encodeURIComponent(good)}`)).status).toBe(404);
  });
});

describe('batch remove', () => {
  it('when some emails match nothing, then they are left out of data', async () => {
    const { api } = await newApiAccount(app);
    const [kept, missing] = uniqueEmails(2);
    const [id] = await addInOrder(api, [kept!]);
    const response = await api.post('/suppressions/batch/remove', { emails: [missing, kept] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [{ object: 'suppression', id, deleted: true }] });
  });

  it('when some ids match nothing, then they are left out of data', async () => {
    const { api } = await newApiAccount(app);
    const ids = await addInOrder(api, uniqueEmails(2));
    const response = await api.post('/suppressions/batch/remove', { ids: [newId(), ids[1], ids[0], ids[1]] });
    expect(response.body.data.map((entry: { id: string }) => entry.id)).toEqual([ids[1], ids[0]]);
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when nothing matches, then data is empty', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/suppressions/batch/remove', { ids: [newId()] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [] });
  });
});

describe('pagination', () => {
  let api: ApiClient;
  let ids: string[];

  beforeAll(async () => {
    ({ api } = await newApiAccount(app));
    // Oldest first: ids[6] is the newest entry.
    ids = await addInOrder(api, uniqueEmails(7));
  });

  const newestFirst = (): string[] => [...ids].reverse();
  const idsOf = (body: { data: { id: string }[] }): string[] => body.data.map((entry) => entry.id);

  it('when no cursor is given, then the newest come first and has_more tells whether older ones exist', async () => {
    const first = await api.get('/suppressions?limit=3');
    expect(idsOf(first.body)).toEqual(newestFirst().slice(0, 3));
    expect(first.body.has_more).toBe(true);
    const all = await api.get('/suppressions?limit=7');
    expect(idsOf(all.body)).toEqual(newestFirst());
    expect(all.body.has_more).toBe(false);
  });

  it('when limit is not given, then a page holds 20', async () => {
    const { api: other } = await newApiAccount(app);
    await other.post('/suppressions/batch/add', { emails: uniqueEmails(25) });
    const page = await other.get('/suppressions');
    expect(page.body.data).toHaveLength(20);
    expect(page.body.has_more).toBe(true);
  });

  it('when walking with after, then each page continues where the last ended, to the end', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await api.get(`/suppressions?limit=3${after ? `&after=${after}` : ''}`);
      seen.push(...idsOf(page.body));
      if (!page.body.has_more) break;
      after = seen[seen.length - 1];
    }
    expect(seen).toEqual(newestFirst());
  });

  it('when walking back with before, then the previous page comes newest first and has_more looks further back', async () => {
    const order = newestFirst();
    const previous = await api.get(`/suppressions?limit=2&before=${order[4]}`);
    expect(idsOf(previous.body)).toEqual([order[2], order[3]]);
    expect(previous.body.has_more).toBe(true);
    const firstPage = await api.get(`/suppressions?limit=2&before=${order[2]}`);
    expect(idsOf(firstPage.body)).toEqual([order[0], order[1]]);
    expect(firstPage.body.has_more).toBe(false);
  });

  it('when the cursor entry was deleted, then paging still continues from its place', async () => {
    const { api: other } = await newApiAccount(app);
    const own = (await addInOrder(other, uniqueEmails(5))).reverse();
    await other.delete(`/suppressions/${own[2]}`);
    const after = await other.get(`/suppressions?limit=5&after=${own[2]}`);
    expect(idsOf(after.body)).toEqual([own[3], own[4]]);
    const before = await other.get(`/suppressions?limit=5&before=${own[2]}`);
    expect(idsOf(before.body)).toEqual([own[0], own[1]]);
  });

  it('when origin is given, then every page holds only that origin and cursors combine with it', async () => {
    const { api: other, accountId } = await newApiAccount(app);
    const emails = uniqueEmails(9);
    const origins: Origin[] = ['bounce', 'manual', 'complaint'];
    const bounceIds: string[] = [];
    for (const [index, email] of emails.entries()) {
      const origin = origins[index % 3]!;
      const [added] = await addSuppressions(app.database.db, accountId, [
        { id: newId(), email, origin, sourceId: origin === 'manual' ? null : newId() },
      ]);
      if (origin === 'bounce') bounceIds.unshift(added!.id);
    }
    const first = await other.get('/suppressions?origin=bounce&limit=2');
    expect(idsOf(first.body)).toEqual(bounceIds.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await other.get(`/suppressions?origin=bounce&limit=2&after=${bounceIds[1]}`);
    expect(idsOf(second.body)).toEqual(bounceIds.slice(2));
    expect(second.body.has_more).toBe(false);
    const back = await other.get(`/suppressions?origin=bounce&limit=2&before=${bounceIds[2]}`);
    expect(idsOf(back.body)).toEqual(bounceIds.slice(0, 2));
    for (const entry of [...first.body.data, ...second.body.data]) {
      expect(entry.origin).toBe('bounce');
      expect(entry.source_id).toMatch(UUID_V7);
    }
  });
});

describe('clients that send a JSON content type on bodiless requests', () => {
  it('when GET and DELETE carry Content-Type: application/json and no body, then they work', async () => {
    const { api } = await newApiAccount(app);
    const [id] = await addInOrder(api, [uniqueEmail()]);
    const headers = { 'content-type': 'application/json' };
    expect((await api.get('/suppressions', { headers })).status).toBe(200);
    expect((await api.get(`/suppressions/${id}`, { headers })).status).toBe(200);
    expect((await api.delete(`/suppressions/${id}`, { headers })).status).toBe(200);
  });
});
