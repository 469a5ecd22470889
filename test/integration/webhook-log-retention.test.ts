import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMonthPartitions, partitionsOf } from '../../src/db/month-partitions.js';
import { newId } from '../../src/domain/ids.js';
import { listAttempts, listDeliveries } from '../../src/webhooks/event-log.js';
import { applyWebhookLogRetention } from '../../src/webhooks/log-partitions.js';
import { createWebhook, removeWebhook } from '../../src/webhooks/webhook-repository.js';
import { newAccount } from '../support/accounts.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();
let changeIds = 0;

function monthsAgo(now: Date, months: number, day = 12): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, day, 9));
}

/** A delivery of a change made at `at`, with one attempt sent at `sentAt`; returns its id. */
async function delivery(webhookId: string, at: Date, status: string, sentAt: Date = at): Promise<string> {
  const id = `msg_${randomUUID().replaceAll('-', '')}`;
  changeIds += 1;
  await database.db.query({
    text: `INSERT INTO webhook_deliveries (id, webhook_id, change_id, type, payload, created_at, status, attempt_count)
           VALUES ($1, $2, $3, 'suppression.added', '{}', $4, $5, 1)`,
    values: [id, webhookId, changeIds, at, status],
  });
  await database.db.query({
    text: `INSERT INTO webhook_attempts (id, delivery_id, http_status_code, response, sent_at, duration_ms)
           VALUES ($1, $2, 200, 'ok', $3, 5)`,
    values: [newId(), id, sentAt],
  });
  return id;
}

async function deliveredIds(webhookId: string): Promise<string[]> {
  const { deliveries } = await listDeliveries(database.db, webhookId, { limit: 100 });
  return deliveries.map((item) => item.id).sort();
}

describe('the webhook event log kept for 30 days', () => {
  const now = new Date();
  let webhookId = '';
  let accountId = '';
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ accountId } = await newAccount(database.db));
    webhookId = (await createWebhook(database.db, { accountId, endpoint: 'https://hooks.example.com/x', events: [] }))
      .id;
    for (let months = 4; months >= 0; months -= 1) {
      await createMonthPartitions(database.db, ['webhook_deliveries', 'webhook_attempts'], monthsAgo(now, months));
    }
    ids.old = await delivery(webhookId, monthsAgo(now, 4), 'success');
    ids.failed = await delivery(webhookId, monthsAgo(now, 3), 'failed');
    // Made at the end of a month, its attempt sent in the next.
    ids.crossing = await delivery(webhookId, monthsAgo(now, 3, 28), 'success', monthsAgo(now, 2, 2));
    ids.stuck = await delivery(webhookId, monthsAgo(now, 2), 'attempting');
    ids.recent = await delivery(webhookId, now, 'success');
  });

  it('when the retention runs, then months wholly past it go whole, but not one holding a delivery still being tried', async () => {
    const result = await applyWebhookLogRetention(database.db, 30, now);
    const month = (months: number) => {
      const at = monthsAgo(now, months);
      return `${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    expect(result.held).toEqual([`webhook_deliveries_${month(2)}`]);
    expect(result.dropped).toEqual(
      expect.arrayContaining([
        `webhook_deliveries_${month(4)}`,
        `webhook_deliveries_${month(3)}`,
        `webhook_attempts_${month(4)}`,
        `webhook_attempts_${month(3)}`,
      ]),
    );
    expect(result.dropped).not.toContain(`webhook_attempts_${month(2)}`);
    expect(await deliveredIds(webhookId)).toEqual([ids.stuck, ids.recent].sort());
    const names = (await partitionsOf(database.db, 'webhook_deliveries')).map((partition) => partition.name);
    expect(names).not.toContain(`webhook_deliveries_${month(4)}`);
  });

  it('then the attempts of a delivery still kept are all there', async () => {
    const { attempts } = await listAttempts(database.db, ids.stuck!, { limit: 10 });
    expect(attempts).toHaveLength(1);
  });

  it('when the webhook is removed, then its deliveries and their attempts go with it, whatever their months', async () => {
    expect(await removeWebhook(database.db, accountId, webhookId)).toBe(true);
    const { rows } = await database.db.query<{ n: number }>({
      text: `SELECT (SELECT count(*) FROM webhook_attempts WHERE delivery_id = ANY($1))::int
                  + (SELECT count(*) FROM webhook_deliveries WHERE webhook_id = $2)::int AS n`,
      values: [[ids.stuck, ids.recent], webhookId],
    });
    expect(rows[0]?.n).toBe(0);
  });
});
