import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { sleep } from '../support/sleep.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { useBatchWorkerBeside } from '../support/test-batch-worker.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';

const app = useTestApp({ queues: true });
useBatchWorkerBeside(app);

/** An address of a domain of its own, so that a domain rule of one test covers nothing of another's. */
function staffAddress(): { email: string; domain: string } {
  const domain = `staff-${uniqueEmail()
    .split('@')[0]!
    .replace(/[^a-z0-9]/g, '')}.example`;
  return { email: `jane@${domain}`, domain };
}

async function stopped(api: ApiClient, email: string, scope?: string): Promise<boolean> {
  const answer = await api.post('/suppressions/check', { emails: [email], ...(scope && { scope }) });
  return answer.body.suppressed.length === 1;
}

async function allow(owner: ApiAccount, body: Record<string, string>) {
  const answer = await owner.api.post('/allowlist', body);
  expect(answer.status).toBe(201);
  return answer.body as { id: string; covered_entries: number };
}

describe('rules', () => {
  it('when a domain is allowlisted, then its entries stay but the check stops reporting them, in every scope, and the answer counts them', async () => {
    const owner = await newApiAccount(app);
    const { email, domain } = staffAddress();
    await owner.api.post('/suppressions', { email });
    await owner.api.post('/suppressions', { email, scope: 'newsletter' });

    const rule = await allow(owner, { domain: domain.toUpperCase(), note: 'Our own staff' });

    expect(rule).toMatchObject({
      object: 'allowlist_rule',
      email: null,
      domain,
      note: 'Our own staff',
      covered_entries: 2,
    });
    expect(await stopped(owner.api, email)).toBe(false);
    expect(await stopped(owner.api, email, 'newsletter')).toBe(false);
    expect((await owner.api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);

    expect((await owner.api.delete(`/allowlist/${rule.id}`)).body).toEqual({
      object: 'allowlist_rule',
      id: rule.id,
      deleted: true,
    });
    expect(await stopped(owner.api, email)).toBe(true);
  });

  it('when an allowlisted address is added by hand, alone or in a batch, then it answers 409 allowlisted naming the rule, and nothing is added', async () => {
    const owner = await newApiAccount(app);
    const { email } = staffAddress();
    const other = uniqueEmail();
    const rule = await allow(owner, { email: email.toUpperCase() });

    const one = await owner.api.post('/suppressions', { email });
    const batch = await owner.api.post('/suppressions/batch/add', { emails: [other, email] });

    expectError(one, 409, 'allowlisted');
    expect(one.body.message).toContain(email);
    expect(one.body.message).toContain(rule.id);
    expectError(batch, 409, 'allowlisted');
    expect((await owner.api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when rules are listed, then they come newest first with their notes, and another account sees none of them', async () => {
    const owner = await newApiAccount(app);
    const other = await newApiAccount(app);
    const first = await allow(owner, { domain: staffAddress().domain });
    const second = await allow(owner, { email: uniqueEmail(), note: 'QA inbox' });

    const listed = await owner.api.get('/allowlist');

    expect(listed.body.data.map((rule: { id: string }) => rule.id)).toEqual([second.id, first.id]);
    expect(listed.body.data[0].note).toBe('QA inbox');
    expect((await other.api.get('/allowlist')).body.data).toEqual([]);
    expectError(await other.api.delete(`/allowlist/${first.id}`), 404, 'not_found');
  });

  it('when a rule names both an address and a domain, or a domain that is not one, then it answers 422; a sending key 401', async () => {
    const owner = await newApiAccount(app);
    expectError(
      await owner.api.post('/allowlist', { email: uniqueEmail(), domain: 'example.com' }),
      422,
      'validation_error',
    );
    expectError(await owner.api.post('/allowlist', { domain: 'not a domain' }), 422, 'validation_error');
    expectError(await owner.api.post('/allowlist', { email: 'nope' }), 422, 'validation_error');
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    expectError(await apiClient(app.server.url, key.token).get('/allowlist'), 401, 'restricted_api_key');
  });
});

describe('what the allowlist keeps off the list', () => {
  it('when a complaint or a hard bounce is about an allowlisted address, then it is recorded as allowlisted and adds nothing', async () => {
    const owner = await newApiAccount(app);
    const { email, domain } = staffAddress();
    await allow(owner, { domain });

    const [complaint, bounce] = await recordEventBatch(app.database.db, [
      parseSuppressionEvent(complaintEvent(owner.accountId, email)),
      parseSuppressionEvent(bounceEvent(owner.accountId, email)),
    ]);

    expect(complaint).toMatchObject({ outcome: 'allowlisted', suppression_id: null });
    expect(bounce).toMatchObject({ outcome: 'allowlisted', suppression_id: null });
    expect((await owner.api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
    const history = await owner.api.get(`/suppressions/${encodeURIComponent(email)}/events`);
    expect(history.body.data.map((record: { outcome: string }) => record.outcome)).toEqual([
      'allowlisted',
      'allowlisted',
    ]);
  });

  it('when a list is imported, then its allowlisted addresses are counted and not added', async () => {
    const owner = await newApiAccount(app);
    const { email } = staffAddress();
    const kept = uniqueEmail();
    await allow(owner, { email });

    const response = await fetch(`${app.server.url}/suppressions/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' },
      body: `${email}\n${kept}\n`,
    });
    const started = (await response.json()) as { id: string };
    let finished: Record<string, unknown> = {};
    for (let waited = 0; waited < 20_000 && finished['status'] !== 'completed'; waited += 50) {
      finished = (await owner.api.get(`/suppressions/imports/${started.id}`)).body;
      await sleep(50);
    }

    expect(finished).toMatchObject({ status: 'completed', added: 1, allowlisted: 1 });
    expect((await owner.api.get('/suppressions')).body.data.map((entry: { email: string }) => entry.email)).toEqual([
      kept,
    ]);
  });

  it('when an allowlisted recipient unsubscribes through their link, then the unsubscribe is honoured and the check reports it in its scope', async () => {
    const owner = await newApiAccount(app);
    const { email, domain } = staffAddress();
    await allow(owner, { domain });
    const links = await owner.api.post('/unsubscribe-links', { emails: [email], scope: 'newsletter' });

    const posted = await fetch(links.body.data[0].url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

    expect(posted.status).toBe(200);
    expect(await stopped(owner.api, email, 'newsletter')).toBe(true);
    expect(await stopped(owner.api, email)).toBe(false);
  });
});
