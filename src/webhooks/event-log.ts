import type { DeliveryStatus, DueDelivery } from './delivery.js';
import type { WebhookEventType } from './webhook.js';
import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, UnknownCursorError, type KeysetQuery } from '../db/keyset-page.js';

export type LogPageQuery = KeysetQuery<string>;

export interface LoggedDelivery {
  id: string;
  type: WebhookEventType;
  createdAt: Date;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  payload: string;
}

interface DeliveryRow {
  id: string;
  type: WebhookEventType;
  created_at: Date;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  payload: string;
}

const fromDeliveryRow = (row: DeliveryRow): LoggedDelivery => ({
  id: row.id,
  type: row.type,
  createdAt: row.created_at,
  status: row.status,
  nextAttemptAt: row.next_attempt_at,
  payload: row.payload,
});

/**
 * Keyset pages of a webhook's deliveries, newest change first. A cursor is an event id of the
 * same webhook, placed by its change.
 */
export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  query: LogPageQuery,
): Promise<{ deliveries: LoggedDelivery[]; hasMore: boolean }> {
  const changeOf = async (cursor: string | undefined, parameter: 'after' | 'before') => {
    if (cursor === undefined) return undefined;
    const { rows } = await db.query<{ change_id: string }>({
      text: 'SELECT change_id FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2',
      values: [webhookId, cursor],
    });
    if (!rows[0]) throw new UnknownCursorError(parameter);
    return rows[0].change_id;
  };
  const values: unknown[] = [webhookId];
  const plan = keysetPlan(
    'change_id',
    { limit: query.limit, after: await changeOf(query.after, 'after'), before: await changeOf(query.before, 'before') },
    values,
  );
  const { rows } = await db.query<DeliveryRow>({
    text: `SELECT id, type, created_at, status, next_attempt_at, payload FROM webhook_deliveries
           WHERE webhook_id = $1 ${plan.condition} ORDER BY change_id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return { deliveries: page.rows.map(fromDeliveryRow), hasMore: page.hasMore };
}

export async function findDelivery(db: Queryable, webhookId: string, id: string): Promise<LoggedDelivery | null> {
  const { rows } = await db.query<DeliveryRow>({
    text: `SELECT id, type, created_at, status, next_attempt_at, payload FROM webhook_deliveries
           WHERE webhook_id = $1 AND id = $2`,
    values: [webhookId, id],
  });
  return rows[0] ? fromDeliveryRow(rows[0]) : null;
}

export interface LoggedAttempt {
  id: string;
  httpStatusCode: number;
  response: string;
  sentAt: Date;
  durationMs: number;
}

/** Keyset pages of a delivery's attempts, newest first; a cursor is an attempt id of the same delivery. */
export async function listAttempts(
  db: Queryable,
  deliveryId: string,
  query: LogPageQuery,
): Promise<{ attempts: LoggedAttempt[]; hasMore: boolean }> {
  const values: unknown[] = [deliveryId];
  const plan = keysetPlan('id', query, values);
  const { rows } = await db.query<{
    id: string;
    http_status_code: number;
    response: string;
    sent_at: Date;
    duration_ms: number;
  }>({
    text: `SELECT id, http_status_code, response, sent_at, duration_ms FROM webhook_attempts
           WHERE delivery_id = $1 ${plan.condition} ORDER BY id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return {
    attempts: page.rows.map((row) => ({
      id: row.id,
      httpStatusCode: row.http_status_code,
      response: row.response,
      sentAt: row.sent_at,
      durationMs: row.duration_ms,
    })),
    hasMore: page.hasMore,
  };
}

/**
 * Makes the delivery due now, with a new round of retries, whatever its state; null when the webhook
 * has no such event. The caller queues the returned attempt.
 */
export async function replayDelivery(db: Queryable, webhookId: string, id: string): Promise<DueDelivery | null> {
  const { rows } = await db.query<{ attempt_count: number }>({
    text: `UPDATE webhook_deliveries SET status = 'pending', round_start = attempt_count, next_attempt_at = now()
           WHERE webhook_id = $1 AND id = $2 RETURNING attempt_count`,
    values: [webhookId, id],
  });
  const row = rows[0];
  return row ? { deliveryId: id, attempt: row.attempt_count, roundStart: row.attempt_count } : null;
}
