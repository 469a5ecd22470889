import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import type { Origin } from '../../src/domain/origins.js';
import { expectError } from '../support/api-client.js';
import { consoleClient, signIn } from '../support/console-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';

const app = useTestApp();

/** An entry of this origin, as the event path, a feed or an import would have put it. */
async function entry(owner: ApiAccount, origin: Origin): Promise<{ id: string; email: string }> {
  const email = uniqueEmail();
  const [added] = await addSuppressions(app.database.db, owner.accountId, [
    { id: newId(), email, origin, sourceId: null },
  ]);
  return { id: added!.id, email };
}

const onList = async (owner: ApiAccount, email: string): Promise<boolean> =>
  (await owner.api.get(`/suppressions/${encodeURIComponent(email)}`)).status === 200;

async function removals(owner: ApiAccount, email: string) {
  const history = await owner.api.get(`/suppressions/${encodeURIComponent(email)}/events`);
  return (history.body.data as Array<{ type: string; reason: string | null; removed_by_key_id: string | null }>).filter(
    (record) => record.type === 'removal',
  );
}

describe('removing an entry a complaint put on the list', () => {
  it('when it is removed without force, then the answer is 409 complaint_protected naming it, and it stays', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    for (const path of [complained.email, complained.id]) {
      const response = await owner.api.delete(`/suppressions/${encodeURIComponent(path)}`);
      expectError(response, 409, 'complaint_protected');
      expect(response.body.message).toContain(complained.email);
      expect(response.body.message).toContain(complained.id);
    }
    expect(await onList(owner, complained.email)).toBe(true);
    expect(await removals(owner, complained.email)).toEqual([]);
  });

  it('when force is given without a reason, then the answer is 422 naming reason, and it stays', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const response = await owner.api.delete(`/suppressions/${encodeURIComponent(complained.email)}?force=true`);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe('`reason` is required with `force`.');
    const blank = await owner.api.delete(`/suppressions/${encodeURIComponent(complained.email)}?force=true&reason=%20`);
    expectError(blank, 422, 'validation_error');
    expect(await onList(owner, complained.email)).toBe(true);
  });

  it('when force and a reason are given, then it is removed and its history keeps the reason and the key', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const reason = 'Customer confirmed by phone that the complaint was a mistake';
    const response = await owner.api.delete(
      `/suppressions/${complained.id}?force=true&reason=${encodeURIComponent(reason)}`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ object: 'suppression', id: complained.id, deleted: true });
    expect(await onList(owner, complained.email)).toBe(false);
    expect(await removals(owner, complained.email)).toEqual([
      expect.objectContaining({ reason, removed_by_key_id: owner.keyId }),
    ]);
  });

  it('when force=false is said outright, then it is refused as without force', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const response = await owner.api.delete(`/suppressions/${complained.id}?force=false&reason=cleanup`);
    expectError(response, 409, 'complaint_protected');
  });

  it('when an entry of another origin is removed, then no force is needed and a reason given is kept', async () => {
    const owner = await newApiAccount(app);
    const manual = await entry(owner, 'manual');
    const bounced = await entry(owner, 'bounce');
    expect((await owner.api.delete(`/suppressions/${manual.id}`)).status).toBe(200);
    expect((await owner.api.delete(`/suppressions/${bounced.id}?reason=mailbox%20fixed`)).status).toBe(200);
    expect(await removals(owner, manual.email)).toEqual([expect.objectContaining({ reason: null })]);
    expect(await removals(owner, bounced.email)).toEqual([expect.objectContaining({ reason: 'mailbox fixed' })]);
  });

  it('when another account asks to remove it, even with force, then the answer is 404 and it stays', async () => {
    const owner = await newApiAccount(app);
    const stranger = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const response = await stranger.api.delete(`/suppressions/${complained.id}?force=true&reason=mine`);
    expectError(response, 404, 'not_found');
    expect(await onList(owner, complained.email)).toBe(true);
  });
});

describe('a batch removal that reaches complaint entries', () => {
  it('when it has no force, then nothing of it is removed and the 409 names each complaint entry', async () => {
    const owner = await newApiAccount(app);
    const first = await entry(owner, 'complaint');
    const second = await entry(owner, 'complaint');
    const manual = await entry(owner, 'manual');
    const response = await owner.api.post('/suppressions/batch/remove', {
      emails: [manual.email, first.email, second.email],
    });
    expectError(response, 409, 'complaint_protected');
    expect(response.body.message).toMatch(/^2 entries were added because the recipient complained/);
    for (const named of [first, second]) expect(response.body.message).toContain(named.email);
    expect(response.body.message).not.toContain(manual.email);
    for (const kept of [first, second, manual]) expect(await onList(owner, kept.email)).toBe(true);
  });

  it('when it has force and a reason, then every entry is removed, each with the reason in its history', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const manual = await entry(owner, 'manual');
    const response = await owner.api.post('/suppressions/batch/remove', {
      ids: [complained.id, manual.id],
      force: true,
      reason: 'Test inboxes reset',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((removed: { id: string }) => removed.id)).toEqual([complained.id, manual.id]);
    for (const removed of [complained, manual]) {
      expect(await removals(owner, removed.email)).toEqual([expect.objectContaining({ reason: 'Test inboxes reset' })]);
    }
  });

  it('when force is not a boolean or comes without a reason, then the answer is 422 and nothing is removed', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const notBoolean = await owner.api.post('/suppressions/batch/remove', {
      ids: [complained.id],
      force: 'yes',
      reason: 'x',
    });
    expectError(notBoolean, 422, 'validation_error');
    expect(notBoolean.body.message).toBe('`force` must be `true` or `false`.');
    const withoutReason = await owner.api.post('/suppressions/batch/remove', { ids: [complained.id], force: true });
    expectError(withoutReason, 422, 'validation_error');
    const tooLong = await owner.api.post('/suppressions/batch/remove', {
      ids: [complained.id],
      force: true,
      reason: 'x'.repeat(501),
    });
    expectError(tooLong, 422, 'validation_error');
    expect(await onList(owner, complained.email)).toBe(true);
  });
});

describe('the console', () => {
  it('when it removes a complaint entry, then it is refused as the API refuses it, and removed with force and a reason', async () => {
    const owner = await newApiAccount(app);
    const complained = await entry(owner, 'complaint');
    const session = consoleClient(app.server.url, await signIn(app.server.url, owner.token));
    const refused = await session.delete(`/console/api/suppressions/${complained.id}`);
    expectError(refused, 409, 'complaint_protected');
    const removed = await session.delete(`/console/api/suppressions/${complained.id}?force=true&reason=checked`);
    expect(removed.status).toBe(200);
    expect(await onList(owner, complained.email)).toBe(false);
  });
});
