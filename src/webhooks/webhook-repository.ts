import { newId } from '../domain/ids.js';
import { newSigningSecret, type Webhook, type WebhookEventType, type WebhookStatus } from './webhook.js';
import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, type KeysetQuery } from '../db/keyset-page.js';

interface WebhookRow {
  id: string;
  account_id: string;
  endpoint: string;
  events: WebhookEventType[];
  status: WebhookStatus;
  signing_secret: string;
  created_at: Date;
}

const COLUMNS = 'id, account_id, endpoint, events, status, signing_secret, created_at';

function fromRow(row: WebhookRow): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    endpoint: row.endpoint,
    events: row.events,
    status: row.status,
    signingSecret: row.signing_secret,
    createdAt: row.created_at,
  };
}

export interface NewWebhook {
  accountId: string;
  endpoint: string;
  events: readonly WebhookEventType[];
}

export async function createWebhook(db: Queryable, webhook: NewWebhook): Promise<Webhook> {
  const { rows } = await db.query<WebhookRow>({
    text: `INSERT INTO webhooks (id, account_id, endpoint, events, signing_secret) VALUES ($1, $2, $3, $4, $5)
           RETURNING ${COLUMNS}`,
    values: [newId(), webhook.accountId, webhook.endpoint, [...new Set(webhook.events)], newSigningSecret()],
  });
  return fromRow(rows[0] as WebhookRow);
}

/** The account's webhook with this id (lower-case UUID), or null. */
export async function findWebhook(db: Queryable, accountId: string, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<WebhookRow>({
    name: 'find-webhook',
    text: `SELECT ${COLUMNS} FROM webhooks WHERE account_id = $1 AND id = $2`,
    values: [accountId, id],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

export interface WebhookPageQuery extends KeysetQuery<string> {
  accountId: string;
}

/** Keyset pages of an account's webhooks, newest first, as the suppressions list pages. */
export async function listWebhooks(
  db: Queryable,
  query: WebhookPageQuery,
): Promise<{ webhooks: Webhook[]; hasMore: boolean }> {
  const values: unknown[] = [query.accountId];
  const plan = keysetPlan('id', query, values);
  const { rows } = await db.query<WebhookRow>({
    text: `SELECT ${COLUMNS} FROM webhooks WHERE account_id = $1 ${plan.condition}
           ORDER BY id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return { webhooks: page.rows.map(fromRow), hasMore: page.hasMore };
}

export interface WebhookChanges {
  endpoint?: string | undefined;
  events?: readonly WebhookEventType[] | undefined;
  status?: WebhookStatus | undefined;
}

/** Applies the given fields; null when the account has no such webhook. */
export async function updateWebhook(
  db: Queryable,
  accountId: string,
  id: string,
  changes: WebhookChanges,
): Promise<Webhook | null> {
  const { rows } = await db.query<WebhookRow>({
    text: `UPDATE webhooks SET endpoint = COALESCE($3, endpoint), events = COALESCE($4, events),
                               status = COALESCE($5, status)
           WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    values: [
      accountId,
      id,
      changes.endpoint ?? null,
      changes.events ? [...new Set(changes.events)] : null,
      changes.status ?? null,
    ],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

/** Removes the webhook and its event log; its deliveries still due are dropped. False when there was none. */
export async function removeWebhook(db: Queryable, accountId: string, id: string): Promise<boolean> {
  // The deliveries go with the webhook by their foreign key; their attempts, which may lie in
  // another month's partition than their delivery, are removed by this statement first.
  const { rows } = await db.query<{ removed: boolean }>({
    text: `WITH attempts AS (
             DELETE FROM webhook_attempts a
             USING webhook_deliveries d, webhooks w
             WHERE w.account_id = $1 AND w.id = $2 AND d.webhook_id = w.id AND a.delivery_id = d.id
           ), removed AS (
             DELETE FROM webhooks WHERE account_id = $1 AND id = $2 RETURNING id
           )
           SELECT EXISTS (SELECT 1 FROM removed) AS removed`,
    values: [accountId, id],
  });
  return rows[0]?.removed ?? false;
}

/** Issues a new secret; the one it replaces goes on signing, next to it, for a day. */
export async function rotateSigningSecret(db: Queryable, accountId: string, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<WebhookRow>({
    text: `UPDATE webhooks SET previous_signing_secret = signing_secret, signing_secret = $3, secret_rotated_at = now()
           WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    values: [accountId, id, newSigningSecret()],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}
