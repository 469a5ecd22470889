import { describe, expect, it } from 'vitest';
import { expireEntries } from '../../src/policy/expiry-repository.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import type { ApiAccount } from '../support/test-app.js';
import { consoleClient, signIn } from '../support/console-client.js';
import { uniqueEmail } from '../support/emails.js';
import { useFeedApp } from '../support/feed-app.js';
import { fixture, recorded } from '../support/feed-contract.js';
import { basicAuth } from '../support/feed-signers.js';
import { useBatchWorkerBeside } from '../support/test-batch-worker.js';
import { eventually } from '../support/test-queue.js';
import { complaintEvent } from '../support/test-events.js';

const app = useFeedApp();
useBatchWorkerBeside(app);

interface Made {
  type: string;
  outcome: string;
  actor: { type: string; id: string | null };
}

/** GET of the address's history. */
const historyOf = (owner: ApiAccount, email: string) =>
  owner.api.get(`/suppressions/${encodeURIComponent(email)}/events`);

/** The address's history, newest first: what each record did, and who made it. */
async function madeBy(owner: ApiAccount, email: string): Promise<Made[]> {
  const response = await historyOf(owner, email);
  expect(response.status).toBe(200);
  return (response.body.data as Made[]).map(({ type, outcome, actor }) => ({ type, outcome, actor }));
}

/** A new account with a Postmark feed: every test needs the account, some the feed. */
async function newFeedAccount() {
  return { created: await app.newFeed('postmark') };
}

describe('who made each record of the history', () => {
  it('when an API key adds and removes an address, then both records name that key', async () => {
    const { created } = await newFeedAccount();
    const owner = created.account;
    const email = uniqueEmail();
    await owner.api.post('/suppressions', { email });
    await owner.api.delete(`/suppressions/${encodeURIComponent(email)}`);

    expect(await madeBy(owner, email)).toEqual([
      { type: 'removal', outcome: 'removed', actor: { type: 'api_key', id: owner.keyId } },
      { type: 'addition', outcome: 'suppressed', actor: { type: 'api_key', id: owner.keyId } },
    ]);
  });

  it('when the console adds and removes an address, then both records name the console and its session’s key', async () => {
    const { created } = await newFeedAccount();
    const owner = created.account;
    const session = consoleClient(app.server.url, await signIn(app.server.url, owner.token));
    const email = uniqueEmail();
    const added = await session.post('/console/api/suppressions', { email });
    expect(added.status).toBe(201);
    expect((await session.delete(`/console/api/suppressions/${added.body.id}`)).status).toBe(200);

    expect(await madeBy(owner, email)).toEqual([
      { type: 'removal', outcome: 'removed', actor: { type: 'console', id: owner.keyId } },
      { type: 'addition', outcome: 'suppressed', actor: { type: 'console', id: owner.keyId } },
    ]);
  });

  it('when a feed reports a complaint, then its record names the feed', async () => {
    const { created } = await newFeedAccount();
    const { username, password } = created.shown as { username: string; password: string };
    const answer = await app.send(created.feed, fixture('postmark', 'spam-complaint.json'), {
      authorization: basicAuth(username, password),
    });
    expect(answer.status).toBe(200);
    await recorded(app, created.account.accountId, 1);

    expect(await madeBy(created.account, 'john@example.com')).toEqual([
      { type: 'complaint', outcome: 'suppressed', actor: { type: 'feed', id: created.feed.id } },
    ]);
  });

  it('when a producer publishes a complaint, then its record names the queue', async () => {
    const { created } = await newFeedAccount();
    const email = uniqueEmail();
    await app.events.queue.add('complaint', complaintEvent(created.account.accountId, email));
    await recorded(app, created.account.accountId, 1);

    expect(await madeBy(created.account, email)).toEqual([
      { type: 'complaint', outcome: 'suppressed', actor: { type: 'queue', id: null } },
    ]);
  });

  it('when a list is imported, then each addition names the queue and the import', async () => {
    const { created } = await newFeedAccount();
    const email = uniqueEmail();
    const response = await fetch(`${app.server.url}/suppressions/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.account.token}`, 'content-type': 'text/plain' },
      body: `${email}\n`,
    });
    const started = (await response.json()) as { id: string };
    expect(response.status).toBe(202);
    // Until the import's worker has written the entry, the address has no history: 404.
    await eventually(async () => (await historyOf(created.account, email)).status === 200, 15_000, 'the addition');

    expect(await madeBy(created.account, email)).toEqual([
      { type: 'addition', outcome: 'suppressed', actor: { type: 'queue', id: started.id } },
    ]);
  });

  it('when an entry expires, then its removal names the service', async () => {
    const { created } = await newFeedAccount();
    const owner = created.account;
    const email = uniqueEmail();
    await owner.api.post('/suppressions', { email });
    await updateSettings(app.database.db, owner.accountId, { expire_after_days: { manual: 1 } });
    await app.database.db.query({
      text: `UPDATE suppressions SET created_at = now() - interval '2 days' WHERE account_id = $1`,
      values: [owner.accountId],
    });
    expect(await expireEntries(app.database.db, 1000)).toBeGreaterThanOrEqual(1);

    expect((await madeBy(owner, email))[0]).toEqual({
      type: 'removal',
      outcome: 'removed',
      actor: { type: 'system', id: null },
    });
  });
});
