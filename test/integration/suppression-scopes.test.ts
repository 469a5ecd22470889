import { describe, expect, it } from 'vitest';
import { expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { useBatchWorkerBeside } from '../support/test-batch-worker.js';

const app = useTestApp({ queues: true });
useBatchWorkerBeside(app);

const path = (email: string, query = '') => `/suppressions/${encodeURIComponent(email)}${query}`;

/** The addresses the check says may not be mailed, in a send of this scope (none: a send of no scope). */
async function blocked(api: ApiClient, emails: string[], scope?: string): Promise<string[]> {
  const response = await api.post('/suppressions/check', scope === undefined ? { emails } : { emails, scope });
  expect(response.status).toBe(200);
  return (response.body.suppressed as Array<{ email: string }>).map((entry) => entry.email);
}

describe('entries of named scopes beside the whole account', () => {
  it('when an address is added to a scope, then only sends in that scope are stopped, and a password reset still goes', async () => {
    const { api } = await newApiAccount(app);
    const reader = uniqueEmail();

    const added = await api.post('/suppressions', { email: reader, scope: 'newsletter' });

    expect(added.status).toBe(201);
    expect(await blocked(api, [reader], 'newsletter')).toEqual([reader]);
    expect(await blocked(api, [reader])).toEqual([]);
    expect(await blocked(api, [reader], 'marketing')).toEqual([]);
  });

  it('when an address is on the list for the whole account, then every send is stopped, whatever its scope', async () => {
    const { api } = await newApiAccount(app);
    const dead = uniqueEmail();
    await api.post('/suppressions', { email: dead });

    expect(await blocked(api, [dead])).toEqual([dead]);
    expect(await blocked(api, [dead], 'newsletter')).toEqual([dead]);
  });

  it('when an address has a global entry and a scoped one, then a scoped check names the global entry, and each can be read and removed alone', async () => {
    const { api } = await newApiAccount(app);
    const both = uniqueEmail();
    const global = (await api.post('/suppressions', { email: both })).body.id as string;
    const scoped = (await api.post('/suppressions', { email: both, scope: 'newsletter' })).body.id as string;

    expect(scoped).not.toBe(global);
    const check = await api.post('/suppressions/check', { emails: [both], scope: 'newsletter' });
    expect(check.body.suppressed).toEqual([expect.objectContaining({ id: global, scope: null })]);
    expect((await api.get(path(both))).body).toMatchObject({ id: global, scope: null });
    expect((await api.get(path(both, '?scope=newsletter'))).body).toMatchObject({ id: scoped, scope: 'newsletter' });

    const removed = await api.delete(path(both));
    expect(removed.body).toMatchObject({ id: global, deleted: true });
    expect(await blocked(api, [both])).toEqual([]);
    expect(await blocked(api, [both], 'newsletter')).toEqual([both]);
  });

  it('when an address has only scoped entries, then retrieve and remove without a scope answer 404 and change nothing', async () => {
    const { api } = await newApiAccount(app);
    const reader = uniqueEmail();
    await api.post('/suppressions', { email: reader, scope: 'newsletter' });

    expectError(await api.get(path(reader)), 404, 'not_found');
    expectError(await api.delete(path(reader)), 404, 'not_found');
    expectError(await api.delete(path(reader, '?scope=marketing')), 404, 'not_found');
    expect(await blocked(api, [reader], 'newsletter')).toEqual([reader]);

    expect((await api.delete(path(reader, '?scope=newsletter'))).status).toBe(200);
    expect(await blocked(api, [reader], 'newsletter')).toEqual([]);
  });

  it('when a scoped entry is read or removed by its id, then the id is enough', async () => {
    const { api } = await newApiAccount(app);
    const reader = uniqueEmail();
    const id = (await api.post('/suppressions', { email: reader, scope: 'newsletter' })).body.id as string;

    expect((await api.get(`/suppressions/${id}`)).body).toMatchObject({ email: reader, scope: 'newsletter' });
    expect((await api.delete(`/suppressions/${id}`)).body).toMatchObject({ id, deleted: true });
  });

  it('when the same address is added twice to a scope, then it keeps its one entry', async () => {
    const { api } = await newApiAccount(app);
    const reader = uniqueEmail();
    const first = await api.post('/suppressions', { email: reader, scope: 'newsletter' });
    const again = await api.post('/suppressions/batch/add', { emails: [reader.toUpperCase()], scope: 'newsletter' });

    expect(again.body.data).toEqual([{ object: 'suppression', id: first.body.id }]);
  });
});

describe('lists, batches and files by scope', () => {
  it('when the list is read without a scope, then every entry shows its own; with one, only that scope’s', async () => {
    const { api } = await newApiAccount(app);
    const [global, weekly, promo] = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
    await api.post('/suppressions', { email: global });
    await api.post('/suppressions/batch/add', { emails: [weekly], scope: 'newsletter-weekly' });
    await api.post('/suppressions', { email: promo, scope: 'promotions' });

    const all = await api.get('/suppressions');
    const weeklyOnly = await api.get('/suppressions?scope=newsletter-weekly');

    expect(all.body.data.map((entry: { email: string; scope: string | null }) => [entry.email, entry.scope])).toEqual([
      [promo, 'promotions'],
      [weekly, 'newsletter-weekly'],
      [global, null],
    ]);
    expect(weeklyOnly.body.data.map((entry: { email: string }) => entry.email)).toEqual([weekly]);
  });

  it('when a batch is removed in a scope, then only that scope’s entries go', async () => {
    const { api } = await newApiAccount(app);
    const [one, two] = [uniqueEmail(), uniqueEmail()];
    await api.post('/suppressions/batch/add', { emails: [one, two] });
    await api.post('/suppressions/batch/add', { emails: [one, two], scope: 'newsletter' });

    const removed = await api.post('/suppressions/batch/remove', { emails: [one, two], scope: 'newsletter' });

    expect(removed.body.data).toHaveLength(2);
    expect(await blocked(api, [one, two])).toEqual([one, two]);
    expect((await api.get('/suppressions?scope=newsletter')).body.data).toEqual([]);
  });

  it('when the list is exported with a scope, then the file holds that scope’s entries with the scope column', async () => {
    const { api, token } = await newApiAccount(app);
    const [global, scoped] = [uniqueEmail(), uniqueEmail()];
    await api.post('/suppressions', { email: global });
    await api.post('/suppressions', { email: scoped, scope: 'newsletter' });

    const response = await fetch(`${app.server.url}/suppressions/export?scope=newsletter`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const [header, ...rows] = (await response.text()).trim().split('\n');

    expect(header).toBe('id,email,origin,source_id,created_at,scope');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`,${scoped.replace(/[.+]/g, '\\$&')},manual,,.*,newsletter$`));
  });

  it('when a list is imported with a scope, then its entries are for that scope and the import says so', async () => {
    const { api, token } = await newApiAccount(app);
    const [one, two] = [uniqueEmail(), uniqueEmail()];

    const response = await fetch(`${app.server.url}/suppressions/imports?scope=promotions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: `${one}\n${two}\n`,
    });
    const started = (await response.json()) as { id: string; scope: string | null };
    expect(response.status).toBe(202);
    expect(started.scope).toBe('promotions');
    for (let waited = 0; waited < 20_000; waited += 50) {
      if ((await api.get(`/suppressions/imports/${started.id}`)).body.status === 'completed') break;
      await sleep(50);
    }

    expect(await blocked(api, [one, two], 'promotions')).toEqual([one, two]);
    expect(await blocked(api, [one, two])).toEqual([]);
  });
});

describe('scopes that are not', () => {
  it.each([
    ['empty', ''],
    ['upper-case', 'Newsletter'],
    ['too long', 'a'.repeat(65)],
    ['with a space', 'news letter'],
    ['with a slash', 'news/letter'],
  ])('when a scope is %s, then every operation answers 422 naming scope and writes nothing', async (_, scope) => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const query = `?scope=${encodeURIComponent(scope)}`;
    const answers = [
      await api.post('/suppressions', { email, scope }),
      await api.post('/suppressions/batch/add', { emails: [email], scope }),
      await api.post('/suppressions/batch/remove', { emails: [email], scope }),
      await api.post('/suppressions/check', { emails: [email], scope }),
      await api.get(path(email, query)),
      await api.delete(path(email, query)),
      await api.get(`/suppressions${query}`),
      await api.get(`/suppressions/export${query}`),
    ];
    for (const answer of answers) {
      expectError(answer, 422, 'validation_error');
      expect(answer.body.message).toMatch(/^`scope` must be a scope: 1 to 64 characters/);
    }
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when a scope is 64 characters of every allowed kind, then it is taken', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const scope = `a-b_c.9${'z'.repeat(57)}`;
    expect((await api.post('/suppressions', { email, scope })).status).toBe(201);
    expect(await blocked(api, [email], scope)).toEqual([email]);
  });
});

describe('scopes and accounts', () => {
  it('when another account suppresses an address in a scope, then this account’s checks in that scope are not touched', async () => {
    const mine = await newApiAccount(app);
    const theirs = await newApiAccount(app);
    const shared = uniqueEmail();
    await theirs.api.post('/suppressions', { email: shared, scope: 'newsletter' });
    await theirs.api.post('/suppressions', { email: shared });

    expect(await blocked(mine.api, [shared], 'newsletter')).toEqual([]);
    expectError(await mine.api.get(path(shared, '?scope=newsletter')), 404, 'not_found');
    expect((await mine.api.get('/suppressions?scope=newsletter')).body.data).toEqual([]);
  });
});
