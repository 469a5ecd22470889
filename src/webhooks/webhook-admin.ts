import type { Webhook } from './webhook.js';
import type { Queryable } from '../db/database.js';

/** A webhook as operators see it: with its account's name, and never its signing secret. */
export interface AdminWebhook extends Omit<Webhook, 'signingSecret'> {
  accountName: string;
}

interface AdminRow {
  id: string;
  account_id: string;
  account_name: string;
  endpoint: string;
  events: AdminWebhook['events'];
  status: AdminWebhook['status'];
  created_at: Date;
}

// The secret is not even read, so it cannot end up in any output.
const ADMIN_SELECT = `SELECT w.id, w.account_id, a.name AS account_name, w.endpoint, w.events, w.status, w.created_at
                      FROM webhooks w JOIN accounts a ON a.id = w.account_id`;

function fromRow(row: AdminRow): AdminWebhook {
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

/** Every webhook, or an account's, oldest first. */
export async function listWebhooksForAdmin(db: Queryable, accountId?: string): Promise<AdminWebhook[]> {
  const { rows } = await db.query<AdminRow>({
    text: `${ADMIN_SELECT} WHERE $1::uuid IS NULL OR w.account_id = $1 ORDER BY w.id`,
    values: [accountId ?? null],
  });
  return rows.map(fromRow);
}

/** The webhook with this id (lower-case UUID), whichever account it belongs to, or null: operators name a webhook by id alone. */
export async function findWebhookForAdmin(db: Queryable, id: string): Promise<AdminWebhook | null> {
  const { rows } = await db.query<AdminRow>({ text: `${ADMIN_SELECT} WHERE w.id = $1`, values: [id] });
  return rows[0] ? fromRow(rows[0]) : null;
}
