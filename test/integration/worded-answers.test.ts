import { describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { expectError } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';

/** What the refusals and the unsubscribe page say: each tells its reader what to do next, in words that fit the case. */

const app = useTestApp();

const path = (email: string, query = '') => `/suppressions/${encodeURIComponent(email)}${query}`;

async function complaintEntry(owner: ApiAccount): Promise<{ id: string; email: string }> {
  const email = uniqueEmail();
  const [entry] = await addSuppressions(app.database.db, owner.accountId, [
    { id: newId(), email, origin: 'complaint', sourceId: null },
  ]);
  return { id: entry!.id, email };
}

describe('removing an entry a complaint put on the list', () => {
  it('when one is deleted without force, then the 409 names the query parameters, and a DELETE with them removes it', async () => {
    const owner = await newApiAccount(app);
    const complained = await complaintEntry(owner);

    const refused = await owner.api.delete(path(complained.email));

    expectError(refused, 409, 'complaint_protected');
    expect(refused.body.message).toContain('repeat the DELETE with the query parameters `force=true` and `reason`');
    expect(refused.body.message).not.toContain('force: true');
    const forced = await owner.api.delete(path(complained.email, '?force=true&reason=Confirmed%20by%20phone'));
    expect(forced.body).toEqual({ object: 'suppression', id: complained.id, deleted: true });
  });

  it('when a batch reaches one without force, then the 409 names the body’s fields', async () => {
    const owner = await newApiAccount(app);
    const complained = await complaintEntry(owner);

    const refused = await owner.api.post('/suppressions/batch/remove', { emails: [complained.email] });

    expectError(refused, 409, 'complaint_protected');
    expect(refused.body.message).toMatch(/To remove it, send `force: true` with a `reason` in the body\.$/);
  });
});

describe('an address whose entries are all of named scopes', () => {
  it('when it is read or removed without a scope, then the 404 names its scope and the `?scope=` that reaches it, and nothing is removed', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    await owner.api.post('/suppressions', { email: reader, scope: 'newsletter' });
    const message = `${reader} has no entry for the whole account, only one in the scope \`newsletter\`: add \`?scope=newsletter\` to reach it.`;

    for (const answer of [await owner.api.get(path(reader)), await owner.api.delete(path(reader))]) {
      expectError(answer, 404, 'not_found');
      expect(answer.body.message).toBe(message);
    }
    expect((await owner.api.get(path(reader, '?scope=newsletter'))).status).toBe(200);
  });

  it('when it has entries in several scopes, then the 404 names the first five in order and says there are more', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    for (const scope of ['promo', 'alerts', 'digest', 'news', 'billing', 'events']) {
      await owner.api.post('/suppressions', { email: reader, scope });
    }
    const two = uniqueEmail();
    for (const scope of ['promo', 'alerts']) await owner.api.post('/suppressions', { email: two, scope });

    expect((await owner.api.get(path(reader))).body.message).toBe(
      `${reader} has no entry for the whole account, only entries in the scopes \`alerts\`, \`billing\`, \`digest\`, \`events\`, \`news\` and more: add \`?scope=\` with one of them to reach it.`,
    );
    expect((await owner.api.get(path(two))).body.message).toBe(
      `${two} has no entry for the whole account, only entries in the scopes \`alerts\` and \`promo\`: add \`?scope=\` with one of them to reach it.`,
    );
  });

  it('when the address is unknown, a scope is named, or an id is given, then the 404 keeps its plain words', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    await owner.api.post('/suppressions', { email: reader, scope: 'newsletter' });

    for (const answer of [
      await owner.api.get(path(uniqueEmail())),
      await owner.api.get(path(reader, '?scope=marketing')),
      await owner.api.delete(path(reader, '?scope=marketing')),
      await owner.api.get(`/suppressions/${newId()}`),
    ]) {
      expectError(answer, 404, 'not_found');
      expect(answer.body.message).toBe('Suppression not found.');
    }
  });
});

describe('the unsubscribe page of a link without a scope', () => {
  it('when the recipient opens it and unsubscribes, then the page speaks of the sender’s mail, not of “all mail”', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const links = await owner.api.post('/unsubscribe-links', { emails: [reader] });
    const url = links.body.data[0].url as string;
    const html = { accept: 'text/html' };

    const page = await (await fetch(url, { headers: html })).text();
    const done = await (
      await fetch(url, {
        method: 'POST',
        headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
    ).text();

    expect(page).toContain(`<p>${reader} will no longer receive mail from this sender.</p>`);
    expect(done).toContain(`<p>${reader} no longer receives mail from this sender.</p>`);
  });
});
