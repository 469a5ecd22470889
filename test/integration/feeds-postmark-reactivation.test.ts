import { describe, expect, it } from 'vitest';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { eventually } from '../support/test-queue.js';
import { useFeedApp } from '../support/feed-app.js';
import { fixture, recorded, suppression, type CreatedFeed } from '../support/feed-contract.js';
import { basicAuth } from '../support/feed-signers.js';

const app = useFeedApp();
const EMAIL = 'john@example.com';

function credentials(created: CreatedFeed): Record<string, string> {
  const { username, password } = created.shown as { username: string; password: string };
  return { authorization: basicAuth(username, password) };
}

/** Postmark's documented record, on the stream `Broadcast`, with some fields changed. */
function onBroadcast(name: string, fields: Record<string, unknown> = {}): string {
  const body = JSON.parse(fixture('postmark', name)) as Record<string, unknown>;
  return JSON.stringify({ ...body, MessageStream: 'Broadcast', ...fields });
}

/** Postmark's hard bounce with the receiving server's answer: a dead address, suppressed at once. */
const hardBounce = () => onBroadcast('bounce-hard-user-unknown.json');

/** The change Postmark posts when the customer reactivates the address on the stream. */
const reactivation = (changedAt: string) =>
  onBroadcast('subscription-change-hard-bounce.json', {
    Recipient: EMAIL,
    SuppressSending: false,
    SuppressionReason: null,
    MessageID: null,
    Metadata: {},
    ChangedAt: changedAt,
  });

async function send(created: CreatedFeed, body: string): Promise<void> {
  expect((await app.send(created.feed, body, credentials(created))).status).toBe(200);
}

const read = (created: CreatedFeed, query = '') =>
  created.account.api.get(`/suppressions/${encodeURIComponent(EMAIL)}${query}`);

describe('Postmark reactivations', () => {
  it('when the customer reactivates an address Postmark’s complaint put on a stream, then its entry in that scope is lifted, audited and announced', async () => {
    const created = await app.newFeed('postmark', {}, 'stream');
    await createWebhook(app.database.db, {
      accountId: created.account.accountId,
      endpoint: 'http://127.0.0.1:9/hook',
      events: ['suppression.removed'],
    });
    await send(created, onBroadcast('spam-complaint.json'));
    await eventually(async () => (await read(created, '?scope=broadcast')).status === 200, 15_000, 'the complaint');
    expect((await read(created, '?scope=broadcast')).body).toMatchObject({ origin: 'complaint', scope: 'broadcast' });

    await send(created, reactivation('2026-11-25T10:00:00Z'));
    await recorded(app, created.account.accountId, 2);

    expect((await read(created, '?scope=broadcast')).status).toBe(404);
    const history = await created.account.api.get(`/suppressions/${encodeURIComponent(EMAIL)}/events`);
    expect(history.body.data[0]).toMatchObject({
      type: 'removal',
      outcome: 'removed',
      removal_reason: 'reactivated',
      scope: 'broadcast',
      actor: { type: 'feed', id: created.feed.id },
    });
    const { rows } = await app.database.db.query<{ type: string; email: string; scope: string }>({
      text: `SELECT type, email, scope FROM suppression_changes WHERE account_id = $1 ORDER BY id`,
      values: [created.account.accountId],
    });
    expect(rows).toEqual([{ type: 'suppression.removed', email: EMAIL, scope: 'broadcast' }]);
  });

  it('when the same reactivation arrives twice, then the second is a duplicate and lifts nothing more', async () => {
    const created = await app.newFeed('postmark', {}, 'stream');
    await send(created, onBroadcast('spam-complaint.json'));
    await recorded(app, created.account.accountId, 1);
    await send(created, reactivation('2026-11-25T10:00:00Z'));
    await send(created, reactivation('2026-11-25T10:00:00Z'));

    const events = await recorded(app, created.account.accountId, 2);
    expect(events.filter((event) => event.type === 'removal')).toHaveLength(1);
  });

  it('when another source also reported the address, then the reactivation lifts nothing and is recorded as such', async () => {
    const created = await app.newFeed('postmark', {}, 'stream');
    await send(created, hardBounce());
    await suppression(created, EMAIL);
    await app.events.queue.add('bounce', {
      account_id: created.account.accountId,
      event_id: 'mta-7731',
      type: 'bounce',
      email: EMAIL,
      source_id: '6c3f1a2b-4d5e-4f60-a7b8-c9d0e1f2a3b4',
      occurred_at: '2026-11-25T09:00:00Z',
      bounce: { type: 'permanent', diagnostic: 'smtp; 550 5.1.1 user unknown' },
    });
    await recorded(app, created.account.accountId, 2);

    await send(created, reactivation('2026-11-25T10:00:00Z'));
    const events = await recorded(app, created.account.accountId, 3);

    expect(events.find((event) => event.type === 'removal')).toMatchObject({ outcome: 'not_suppressed' });
    expect((await read(created)).body).toMatchObject({ origin: 'bounce', scope: null });
  });

  it('when the address was put on the list by hand, then a reactivation at Postmark leaves it there', async () => {
    const created = await app.newFeed('postmark');
    await created.account.api.post('/suppressions', { email: EMAIL });
    await send(created, hardBounce());
    await recorded(app, created.account.accountId, 1);

    await send(created, reactivation('2026-11-25T10:00:00Z'));
    await recorded(app, created.account.accountId, 2);

    expect((await read(created)).body).toMatchObject({ origin: 'manual' });
  });

  it('when Postmark’s hard bounce alone put the address on the list, then a reactivation lifts that entry for the whole account', async () => {
    const created = await app.newFeed('postmark');
    await send(created, hardBounce());
    await suppression(created, EMAIL);

    await send(created, reactivation('2026-11-25T10:00:00Z'));
    await eventually(async () => (await read(created)).status === 404, 15_000, 'the lift');
  });
});
