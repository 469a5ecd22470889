import { describe, expect, it } from 'vitest';
import { addInOrder, type ApiClient, type ApiResponse } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

/** Two brand-new accounts, each with its own full-access key. */
async function twoAccounts(): Promise<{ owner: ApiClient; other: ApiClient }> {
  const [owner, other] = await Promise.all([newApiAccount(app), newApiAccount(app)]);
  expect(owner.accountId).not.toBe(other.accountId);
  return { owner: owner.api, other: other.api };
}

const idsOf = (response: ApiResponse): string[] => response.body.data.map((entry: { id: string }) => entry.id);

/** Exactly what an unknown suppression answers. */
function expectNotFound(response: ApiResponse): void {
  expect(response.status).toBe(404);
  expect(response.body).toStrictEqual({ statusCode: 404, name: 'not_found', message: expect.any(String) });
}

describe('another account’s entry answers as if it did not exist', () => {
  it('when another account GETs an entry by id or by email, then it answers 404, the same as an unknown one', async () => {
    const { owner, other } = await twoAccounts();
    const email = uniqueEmail();
    const [id] = await addInOrder(owner, [email]);
    const byId = await other.get(`/suppressions/${id}`);
    const byEmail = await other.get(`/suppressions/${encodeURIComponent(email)}`);
    const unknown = await other.get(`/suppressions/${encodeURIComponent(uniqueEmail())}`);
    expectNotFound(byId);
    expectNotFound(byEmail);
    expect(byId.body).toEqual(unknown.body);
    expect(byEmail.body).toEqual(unknown.body);
    expect((await owner.get(`/suppressions/${id}`)).body.email).toBe(email);
  });

  it('when another account DELETEs an entry by id, then it answers 404 and the entry still exists for its owner', async () => {
    const { owner, other } = await twoAccounts();
    const email = uniqueEmail();
    const [id] = await addInOrder(owner, [email]);
    expectNotFound(await other.delete(`/suppressions/${id}`));
    const kept = await owner.get(`/suppressions/${id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ id, email });
  });

  it('when another account DELETEs an entry by email, then it answers 404 and the entry still exists for its owner', async () => {
    const { owner, other } = await twoAccounts();
    const email = uniqueEmail();
    const [id] = await addInOrder(owner, [email]);
    expectNotFound(await other.delete(`/suppressions/${encodeURIComponent(email.toUpperCase())}`));
    const kept = await owner.get(`/suppressions/${encodeURIComponent(email)}`);
    expect(kept.status).toBe(200);
    expect(kept.body.id).toBe(id);
  });
});

describe('batch remove only reaches the caller’s own entries', () => {
  it('when another account batch-removes by the owner’s ids, then nothing is removed', async () => {
    const { owner, other } = await twoAccounts();
    const ids = await addInOrder(owner, uniqueEmails(3));
    const response = await other.post('/suppressions/batch/remove', { ids });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [] });
    expect(idsOf(await owner.get('/suppressions')).sort()).toEqual([...ids].sort());
  });

  it('when another account batch-removes by the owner’s emails, then nothing is removed', async () => {
    const { owner, other } = await twoAccounts();
    const emails = uniqueEmails(3);
    const ids = await addInOrder(owner, emails);
    const response = await other.post('/suppressions/batch/remove', { emails });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [] });
    expect(idsOf(await owner.get('/suppressions')).sort()).toEqual([...ids].sort());
  });

  it('when a batch remove mixes own and foreign ids, then only the own ones are removed', async () => {
    const { owner, other } = await twoAccounts();
    const [ownerId] = await addInOrder(owner, [uniqueEmail()]);
    const [otherId] = await addInOrder(other, [uniqueEmail()]);
    const response = await other.post('/suppressions/batch/remove', { ids: [ownerId, otherId] });
    expect(response.body).toEqual({ data: [{ object: 'suppression', id: otherId, deleted: true }] });
    expect((await owner.get(`/suppressions/${ownerId}`)).status).toBe(200);
  });
});

describe('listing', () => {
  it('when two accounts have entries, then each list shows only its own', async () => {
    const { owner, other } = await twoAccounts();
    const ownerIds = await addInOrder(owner, uniqueEmails(2));
    const otherIds = await addInOrder(other, uniqueEmails(3));
    expect(idsOf(await owner.get('/suppressions?limit=100'))).toEqual([...ownerIds].reverse());
    expect(idsOf(await other.get('/suppressions?limit=100'))).toEqual([...otherIds].reverse());
    expect(idsOf(await owner.get('/suppressions?origin=manual'))).toEqual([...ownerIds].reverse());
  });

  it('when an after cursor is taken from another account, then it reveals none of that account’s entries', async () => {
    const { owner, other } = await twoAccounts();
    // Interleaved in time: other's older entry, then the owner's, then other's newer entry.
    const [otherOlder] = await addInOrder(other, [uniqueEmail()]);
    const ownerIds = await addInOrder(owner, uniqueEmails(3));
    const [otherNewer] = await addInOrder(other, [uniqueEmail()]);

    const after = await other.get(`/suppressions?after=${ownerIds[2]}`);
    expect(after.status).toBe(200);
    expect(idsOf(after)).toEqual([otherOlder]);
    expect(after.body.has_more).toBe(false);

    const before = await other.get(`/suppressions?before=${ownerIds[0]}`);
    expect(before.status).toBe(200);
    expect(idsOf(before)).toEqual([otherNewer]);
    expect(before.body.has_more).toBe(false);

    for (const entry of [...after.body.data, ...before.body.data]) {
      expect(ownerIds).not.toContain(entry.id);
    }
  });
});

describe('the same address in two accounts', () => {
  it('when both accounts suppress one address, then each has its own entry with a different id', async () => {
    const { owner, other } = await twoAccounts();
    const email = uniqueEmail();
    const [ownerId] = await addInOrder(owner, [email]);
    const batch = await other.post('/suppressions/batch/add', { emails: [email.toUpperCase()] });
    expect(batch.status).toBe(201);
    const otherId = batch.body.data[0].id;
    expect(otherId).not.toBe(ownerId);
    expect((await owner.get(`/suppressions/${encodeURIComponent(email)}`)).body.id).toBe(ownerId);
    expect((await other.get(`/suppressions/${encodeURIComponent(email)}`)).body.id).toBe(otherId);
  });

  it('when one account removes the shared address, then the other account keeps its entry', async () => {
    const { owner, other } = await twoAccounts();
    const email = uniqueEmail();
    const [ownerId] = await addInOrder(owner, [email]);
    const [otherId] = await addInOrder(other, [email]);
    const removed = await other.delete(`/suppressions/${encodeURIComponent(email)}`);
    expect(removed.body).toEqual({ object: 'suppression', id: otherId, deleted: true });
    expect((await owner.get(`/suppressions/${encodeURIComponent(email)}`)).body.id).toBe(ownerId);
    expectNotFound(await other.get(`/suppressions/${encodeURIComponent(email)}`));
  });

  it('when one account re-adds an address the other already has, then it does not get the other’s id', async () => {
    const { owner, other } = await twoAccounts();
    const emails = uniqueEmails(2);
    const owned = await owner.post('/suppressions/batch/add', { emails });
    const again = await other.post('/suppressions/batch/add', { emails });
    const ownerIds = idsOf(owned);
    for (const id of idsOf(again)) expect(ownerIds).not.toContain(id);
    expect(idsOf(await other.get('/suppressions')).sort()).toEqual(idsOf(again).sort());
  });
});
