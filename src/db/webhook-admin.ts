import type { Queryable } from './database.js';
import type { ListedWebhook } from './webhook-repository.js';

/** A webhook as operators look it up: everything but its signing secret. */
export type AdminWebhook = Omit<ListedWebhook, 'signingSecret'>;

/**
 * The webhook with this id (lower-case UUID), whichever account it belongs to, or null: operators
 * name a webhook by id alone. The secret is not even read, so it cannot end up in any output.
 */
export async function findWebhookForAdmin(db: Queryable, id: string): Promise<AdminWebhook | null> {
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    account_name: string;
    endpoint: string;
    events: AdminWebhook['events'];
    status: AdminWebhook['status'];
    created_at: Date;
  }>({
    text: `SELECT w.id, w.account_id, a.name AS account_name, w.endpoint, w.events, w.status, w.created_at
           FROM webhooks w JOIN accounts a ON a.id = w.account_id
           WHERE w.id = $1`,
    values: [id],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    endpoint: row.endpoint,
    events: row.events,
    status: row.status,
    createdAt: row.created_at,
  };
}
