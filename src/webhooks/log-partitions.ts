import type { Database } from '../db/database.js';
import { partitionsBefore, partitionsOf, retire, retiredName, retiredOf } from '../db/month-partitions.js';

/**
 * The webhook event log (`webhook_deliveries` by the month of their change, `webhook_attempts` by
 * the month they were sent; migration 0018) keeps delivered and failed deliveries for this long,
 * then drops their month whole.
 */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;

export interface WebhookLogRetentionResult {
  dropped: string[];
  /** Months past the retention that still hold a delivery being tried: kept until it ends. */
  held: string[];
}

async function stillDue(db: Database, partition: string): Promise<boolean> {
  const { rows } = await db.query<{ due: boolean }>({
    text: `SELECT EXISTS (SELECT 1 FROM "${partition}" WHERE status IN ('pending', 'attempting')) AS due`,
    values: [],
  });
  return rows[0]?.due ?? false;
}

async function dropRetired(db: Database, parent: 'webhook_deliveries' | 'webhook_attempts'): Promise<string[]> {
  const retired = await retiredOf(db, parent);
  for (const table of retired) await db.query({ text: `DROP TABLE "${table}"`, values: [] });
  return retired.map(retiredName);
}

/**
 * Drops the months of deliveries made wholly before the retention, unless one of their deliveries
 * is still being tried, and the months of attempts no remaining delivery can own: an attempt is
 * sent in its delivery's month or later.
 */
export async function applyWebhookLogRetention(
  db: Database,
  retentionDays: number = WEBHOOK_LOG_RETENTION_DAYS,
  now: Date = new Date(),
): Promise<WebhookLogRetentionResult> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const held: string[] = [];
  for (const partition of await partitionsBefore(db, 'webhook_deliveries', cutoff)) {
    if (await stillDue(db, partition.name)) {
      held.push(partition.name);
      continue;
    }
    await db.withTransaction((client) => retire(client, 'webhook_deliveries', partition.name));
  }
  const oldestDeliveries = (await partitionsOf(db, 'webhook_deliveries'))[0]?.until.getTime() ?? Infinity;
  for (const partition of await partitionsBefore(db, 'webhook_attempts', cutoff)) {
    if (partition.until.getTime() >= oldestDeliveries) break;
    await db.withTransaction((client) => retire(client, 'webhook_attempts', partition.name));
  }
  const dropped = [...(await dropRetired(db, 'webhook_deliveries')), ...(await dropRetired(db, 'webhook_attempts'))];
  return { dropped, held };
}
