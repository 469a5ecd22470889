import { randomUUID } from 'node:crypto';
import { Resend } from 'resend';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { newAccount } from '../support/accounts.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';

const app = useTestApp();

/** Resend's own SDK, pointed at our server, for a brand-new account. */
async function newClient(): Promise<{ resend: Resend; accountId: string }> {
  const key = await newAccount(app.database.db);
  return { resend: new Resend(key.token, { baseUrl: app.server.url }), accountId: key.accountId };
}

/** The data of a successful SDK call; fails the test when the SDK reports an error. */
function dataOf<T>(response: { data: T | null; error: unknown }): T {
  expect(response.error).toBeNull();
  expect(response.data).not.toBeNull();
  return response.data as T;
}

/** Adds addresses one request at a time so that their ids (and so their order) are distinct. */
async function addInOrder(resend: Resend, emails: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    ids.push(dataOf(await resend.suppressions.add({ email })).id);
  }
  return ids;
}

describe('adding through the SDK', () => {
  it('when one address is added, then the SDK returns the new id and get returns the full entry', async () => {
    const { resend } = await newClient();
    const email = uniqueEmail();
    const added = dataOf(await resend.suppressions.add({ email }));
    expect(added).toEqual({ object: 'suppression', id: expect.stringMatching(UUID_V7) });

    const entry = dataOf(await resend.suppressions.get(added.id));
    expect(entry).toEqual({
      object: 'suppression',
      id: added.id,
      email,
      origin: 'manual',
      source_id: null,

      scope: null,
      created_at: expect.stringMatching(ISO_MS),
    });
  });

  it('when a batch is added that repeats an address already on the list, then that address keeps its existing id', async () => {
    const { resend } = await newClient();
    const [existing, fresh1, fresh2] = uniqueEmails(3);
    const [existingId] = await addInOrder(resend, [existing!]);

    const batch = dataOf(await resend.suppressions.batch.add({ emails: [fresh1!, existing!.toUpperCase(), fresh2!] }));
    expect(batch.data).toHaveLength(3);
    expect(batch.data.map((entry) => entry.object)).toEqual(['suppression', 'suppression', 'suppression']);
    const [first, second, third] = batch.data.map((entry) => entry.id);
    expect(second).toBe(existingId);
    expect(first).toMatch(UUID_V7);
    expect(third).toMatch(UUID_V7);
    expect(new Set([first, second, third]).size).toBe(3);

    expect(dataOf(await resend.suppressions.get(fresh1!)).id).toBe(first);
    expect(dataOf(await resend.suppressions.get(fresh2!)).id).toBe(third);
  });
});

describe('listing through the SDK', () => {
  let resend: Resend;
  let newestFirst: string[];
  let emailById: Map<string, string>;

  beforeAll(async () => {
    ({ resend } = await newClient());
    const emails = uniqueEmails(7);
    const ids = await addInOrder(resend, emails);
    emailById = new Map(ids.map((id, index) => [id, emails[index]!]));
    newestFirst = [...ids].reverse();
  });

  it('when list is called without options, then every entry comes newest first with the full shape', async () => {
    const page = dataOf(await resend.suppressions.list());
    expect(page.object).toBe('list');
    expect(page.has_more).toBe(false);
    expect(page.data).toEqual(
      newestFirst.map((id) => ({
        object: 'suppression',
        id,
        email: emailById.get(id),
        origin: 'manual',
        source_id: null,
        scope: null,
        created_at: expect.stringMatching(ISO_MS),
      })),
    );
  });

  it('when paging with limit and after, then the pages walk all entries newest first and has_more ends on the last', async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = dataOf(await resend.suppressions.list(after === undefined ? { limit: 3 } : { limit: 3, after }));
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((entry) => entry.id));
      hasMore.push(page.has_more);
      if (!page.has_more) break;
      after = seen[seen.length - 1];
    }
    expect(seen).toEqual(newestFirst);
    expect(hasMore).toEqual([true, true, false]);
  });

  it('when list is called with before, then it returns the newer page, still newest first', async () => {
    const previous = dataOf(await resend.suppressions.list({ limit: 2, before: newestFirst[4]! }));
    expect(previous.data.map((entry) => entry.id)).toEqual([newestFirst[2], newestFirst[3]]);
    expect(previous.has_more).toBe(true);

    const firstPage = dataOf(await resend.suppressions.list({ limit: 2, before: newestFirst[2]! }));
    expect(firstPage.data.map((entry) => entry.id)).toEqual([newestFirst[0], newestFirst[1]]);
    expect(firstPage.has_more).toBe(false);
  });

  it('when list is filtered by origin manual, then only manual entries come back', async () => {
    const { resend: client, accountId } = await newClient();
    const emails = uniqueEmails(6);
    const origins: Origin[] = ['bounce', 'manual', 'complaint'];
    const manualNewestFirst: string[] = [];
    for (const [index, email] of emails.entries()) {
      const origin = origins[index % 3]!;
      const [added] = await addSuppressions(app.database.db, accountId, [
        { id: newId(), email, origin, sourceId: origin === 'manual' ? null : newId() },
      ]);
      if (origin === 'manual') manualNewestFirst.unshift(added!.id);
    }

    const page = dataOf(await client.suppressions.list({ origin: 'manual' }));
    expect(page.data.map((entry) => entry.id)).toEqual(manualNewestFirst);
    expect(page.data.every((entry) => entry.origin === 'manual' && entry.source_id === null)).toBe(true);
    expect(page.has_more).toBe(false);

    const all = dataOf(await client.suppressions.list());
    expect(all.data).toHaveLength(6);
  });
});

describe('retrieving through the SDK', () => {
  it('when get is given a plus address, then the SDK encodes it and the entry is found', async () => {
    const { resend } = await newClient();
    const email = `first+${randomUUID().slice(0, 8)}@example.com`;
    const [id] = await addInOrder(resend, [email]);

    const entry = dataOf(await resend.suppressions.get(email));
    expect(entry.id).toBe(id);
    expect(entry.email).toBe(email);
  });

  it('when get is given the address in upper case, then the same entry is found', async () => {
    const { resend } = await newClient();
    const email = `first+${randomUUID().slice(0, 8)}@example.com`;
    const [id] = await addInOrder(resend, [email]);

    const entry = dataOf(await resend.suppressions.get(email.toUpperCase()));
    expect(entry.id).toBe(id);
    expect(entry.email).toBe(email);
  });

  it('when get is given an id in upper case, then the entry is found', async () => {
    const { resend } = await newClient();
    const [id] = await addInOrder(resend, [uniqueEmail()]);
    expect(dataOf(await resend.suppressions.get(id!.toUpperCase())).id).toBe(id);
  });
});

describe('removing through the SDK', () => {
  it('when remove is given an id, then it answers deleted true and the entry is gone', async () => {
    const { resend } = await newClient();
    const [id] = await addInOrder(resend, [uniqueEmail()]);

    expect(dataOf(await resend.suppressions.remove(id!))).toEqual({ object: 'suppression', id, deleted: true });
    const after = await resend.suppressions.get(id!);
    expect(after.data).toBeNull();
    expect(after.error).toMatchObject({ name: 'not_found', statusCode: 404 });
  });

  it('when remove is given a plus address, then it answers with that entry id and the entry is gone', async () => {
    const { resend } = await newClient();
    const email = `first+${randomUUID().slice(0, 8)}@example.com`;
    const [id] = await addInOrder(resend, [email]);

    expect(dataOf(await resend.suppressions.remove(email))).toEqual({ object: 'suppression', id, deleted: true });
    expect((await resend.suppressions.get(email)).error).toMatchObject({ name: 'not_found', statusCode: 404 });
  });

  it('when batch remove is given emails with a miss, then only the removed entries come back, in the order given', async () => {
    const { resend } = await newClient();
    const [kept, a, b, missing] = uniqueEmails(4);
    const [keptId, aId, bId] = await addInOrder(resend, [kept!, a!, b!]);

    const removed = dataOf(await resend.suppressions.batch.remove({ emails: [b!, missing!, a!.toUpperCase()] }));
    expect(removed).toEqual({
      data: [
        { object: 'suppression', id: bId, deleted: true },
        { object: 'suppression', id: aId, deleted: true },
      ],
    });
    expect(dataOf(await resend.suppressions.list()).data.map((entry) => entry.id)).toEqual([keptId]);
  });

  it('when batch remove is given ids with a miss, then only the removed entries come back', async () => {
    const { resend } = await newClient();
    const [keptId, aId, bId] = await addInOrder(resend, uniqueEmails(3));

    const removed = dataOf(await resend.suppressions.batch.remove({ ids: [aId!, newId(), bId!] }));
    expect(removed).toEqual({
      data: [
        { object: 'suppression', id: aId, deleted: true },
        { object: 'suppression', id: bId, deleted: true },
      ],
    });
    expect(dataOf(await resend.suppressions.list()).data.map((entry) => entry.id)).toEqual([keptId]);
  });

  it('when batch remove matches nothing, then data is empty', async () => {
    const { resend } = await newClient();
    expect(dataOf(await resend.suppressions.batch.remove({ ids: [newId()] }))).toEqual({ data: [] });
  });
});

describe('errors parsed by the SDK', () => {
  it('when get is given an unknown id, then the SDK reports not_found with status 404', async () => {
    const { resend } = await newClient();
    const response = await resend.suppressions.get(newId());
    expect(response.data).toBeNull();
    expect(response.error).toEqual({ statusCode: 404, name: 'not_found', message: expect.any(String) });
  });

  it('when another account asks for an entry by id, then the SDK reports not_found', async () => {
    const { resend: owner } = await newClient();
    const { resend: stranger } = await newClient();
    const [id] = await addInOrder(owner, [uniqueEmail()]);
    expect((await stranger.suppressions.get(id!)).error).toMatchObject({ name: 'not_found', statusCode: 404 });
    expect(dataOf(await owner.suppressions.get(id!)).id).toBe(id);
  });

  it('when the key is unknown, then the SDK reports invalid_api_key with status 403', async () => {
    const resend = new Resend(generateToken(), { baseUrl: app.server.url });
    const response = await resend.suppressions.list();
    expect(response.data).toBeNull();
    expect(response.error).toEqual({ statusCode: 403, name: 'invalid_api_key', message: expect.any(String) });
  });

  it('when the key may only send, then the SDK reports restricted_api_key with status 401', async () => {
    const key = await newAccount(app.database.db, 'sending_access');
    const resend = new Resend(key.token, { baseUrl: app.server.url });
    const response = await resend.suppressions.list();
    expect(response.error).toEqual({ statusCode: 401, name: 'restricted_api_key', message: expect.any(String) });
  });

  it('when the limit is out of range, then the SDK reports validation_error with status 422 naming limit', async () => {
    const { resend } = await newClient();
    const response = await resend.suppressions.list({ limit: 101 });
    expect(response.data).toBeNull();
    expect(response.error).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: expect.stringContaining('limit'),
    });
  });

  it('when an invalid address is added, then the SDK reports validation_error and nothing is written', async () => {
    const { resend } = await newClient();
    const good = uniqueEmail();
    const single = await resend.suppressions.add({ email: 'not-an-address' });
    expect(single.error).toMatchObject({ statusCode: 422, name: 'validation_error' });

    const batch = await resend.suppressions.batch.add({ emails: [good, 'still not an address'] });
    expect(batch.data).toBeNull();
    expect(batch.error).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: expect.stringContaining('emails[1]'),
    });
    expect(dataOf(await resend.suppressions.list()).data).toEqual([]);
  });
});
