import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/accounts/account-repository.js';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { removeSuppressions } from '../../src/suppressions/suppression-removal.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { createWebhook, updateWebhook } from '../../src/webhooks/webhook-repository.js';
import type { WebhookEventType, WebhookStatus } from '../../src/webhooks/webhook.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestDatabase } from '../support/test-database.js';

// The rule "an enabled webhook subscribes to this type" is the SQL function webhook_subscribes,
// which both the outbox trigger and dispatch call: these tests hold both sides to it.
const database = useTestDatabase();

const BOTH: WebhookEventType[] = ['suppression.added', 'suppression.removed'];

async function newAccountId(): Promise<string> {
  return (await ensureAccount(database.db, `subscription-${randomBytes(4).toString('hex')}`)).id;
}

function subscribe(accountId: string, events: WebhookEventType[]) {
  return createWebhook(database.db, { accountId, endpoint: 'https://hooks.example.com/suppressions', events });
}

async function addOne(accountId: string, email = uniqueEmail()): Promise<{ id: string; email: string }> {
  const [added] = await addSuppressions(database.db, accountId, [
    { id: newId(), email, origin: 'manual', sourceId: null },
  ]);
  return { id: added!.id, email };
}

async function typesOf(text: string, id: string): Promise<string[]> {
  const { rows } = await database.db.query<{ type: string }>({ text, values: [id] });
  return rows.map((row) => row.type);
}

/** The types of the account's changes the trigger recorded and dispatch has not yet taken. */
const outboxTypes = (accountId: string) =>
  typesOf('SELECT type FROM suppression_changes WHERE account_id = $1 ORDER BY id', accountId);

/** The types of the deliveries dispatch made for the webhook, in change order. */
const deliveryTypes = (webhookId: string) =>
  typesOf('SELECT type FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY change_id', webhookId);

describe('webhook_subscribes', () => {
  it('when asked of every status and subscription, then only an enabled webhook subscribed to the type receives it', async () => {
    const cases: [WebhookStatus, WebhookEventType[], WebhookEventType, boolean][] = [
      ['enabled', BOTH, 'suppression.added', true],
      ['enabled', ['suppression.removed'], 'suppression.removed', true],
      ['enabled', ['suppression.removed'], 'suppression.added', false],
      ['disabled', BOTH, 'suppression.added', false],
      ['disabled', BOTH, 'suppression.removed', false],
    ];
    const accountId = await newAccountId();
    const answers: boolean[] = [];
    for (const [status, events, type] of cases) {
      const webhook = await subscribe(accountId, events);
      await updateWebhook(database.db, accountId, webhook.id, { status });
      const { rows } = await database.db.query<{ subscribes: boolean }>({
        text: 'SELECT webhook_subscribes(w, $2) AS subscribes FROM webhooks w WHERE w.id = $1',
        values: [webhook.id, type],
      });
      answers.push(rows[0]!.subscribes);
    }
    expect(answers).toEqual(cases.map(([, , , subscribes]) => subscribes));
  });
});

describe('the trigger and dispatch follow the same rule', () => {
  it('when a webhook is disabled, then neither the trigger nor dispatch picks it', async () => {
    const accountId = await newAccountId();
    const webhook = await subscribe(accountId, BOTH);
    await addOne(accountId);
    expect(await outboxTypes(accountId)).toEqual(['suppression.added']);

    // Disabled after the trigger recorded the change: dispatch makes no delivery of it.
    await updateWebhook(database.db, accountId, webhook.id, { status: 'disabled' });
    await dispatchChanges(database.db, 100);
    expect(await outboxTypes(accountId)).toEqual([]);
    expect(await deliveryTypes(webhook.id)).toEqual([]);

    // Disabled before the change: the trigger records nothing.
    await addOne(accountId);
    expect(await outboxTypes(accountId)).toEqual([]);
  });

  it('when a webhook subscribes only to removals, then the trigger records additions only for another subscriber, and dispatch gives it only removals', async () => {
    const accountId = await newAccountId();
    const removals = await subscribe(accountId, ['suppression.removed']);
    const added = await addOne(accountId);
    expect(await outboxTypes(accountId)).toEqual([]);

    const both = await subscribe(accountId, BOTH);
    await addOne(accountId);
    await removeSuppressions(
      database.db,
      accountId,
      { ids: [added.id] },
      { keyId: null, force: false, reason: null, actor: { type: 'queue', id: null } },
    );
    expect(await outboxTypes(accountId)).toEqual(['suppression.added', 'suppression.removed']);

    await dispatchChanges(database.db, 100);
    expect(await deliveryTypes(removals.id)).toEqual(['suppression.removed']);
    expect(await deliveryTypes(both.id)).toEqual(['suppression.added', 'suppression.removed']);
  });

  it('when a webhook is enabled again, then the changes made while it was disabled stay unannounced and new ones are', async () => {
    const accountId = await newAccountId();
    const webhook = await subscribe(accountId, BOTH);
    await updateWebhook(database.db, accountId, webhook.id, { status: 'disabled' });
    await addOne(accountId);
    await updateWebhook(database.db, accountId, webhook.id, { status: 'enabled' });
    await addOne(accountId);

    expect(await outboxTypes(accountId)).toEqual(['suppression.added']);
    await dispatchChanges(database.db, 100);
    expect(await deliveryTypes(webhook.id)).toEqual(['suppression.added']);
  });
});

describe('the payload dispatch stores', () => {
  it('when a change is dispatched, then its payload is the event as signed: type, created_at and the entry as the API shows it, in that order', async () => {
    const accountId = await newAccountId();
    const webhook = await subscribe(accountId, BOTH);
    const { id, email } = await addOne(accountId);
    const { rows: changes } = await database.db.query<{ created_at: Date; suppression_created_at: Date }>({
      text: 'SELECT created_at, suppression_created_at FROM suppression_changes WHERE suppression_id = $1',
      values: [id],
    });
    const change = changes[0]!;

    await dispatchChanges(database.db, 100);
    const { rows } = await database.db.query<{ payload: string }>({
      text: 'SELECT payload FROM webhook_deliveries WHERE webhook_id = $1',
      values: [webhook.id],
    });
    expect(rows.map((row) => row.payload)).toEqual([
      `{"type":"suppression.added","created_at":"${change.created_at.toISOString()}",` +
        `"data":{"object":"suppression","id":"${id}","email":"${email}","origin":"manual","source_id":null,` +
        `"scope":null,"created_at":"${change.suppression_created_at.toISOString()}"}}`,
    ]);
  });
});
