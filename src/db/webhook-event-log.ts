import type { DeliveryStatus, DueDelivery } from '../webhooks/delivery.js';
import type { WebhookEventType } from '../webhooks/webhook.js';
import type { Queryable } from './database.js';

export interface LogPageQuery {
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
}

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

/** A cursor that names nothing in this log: the caller answers it as a bad parameter. */
export class UnknownCursorError extends Error {
  constructor(readonly parameter: 'after' | 'before') {
    super(`no such ${parameter} cursor`);
    this.name = 'UnknownCursorError';
  }
}

/**
 * Keyset pages of a webhook's deliveries, newest change first. A cursor is an event id of the
 * same webhook, placed by its change.
 */
export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  query: LogPageQuery,
): Promise<{ deliveries: LoggedDelivery[]; hasMore: boolean }> {
  const values: unknown[] = [webhookId];
  let condition = '';
  let direction = 'DESC';
  const cursor = query.after ?? query.before;
  if (cursor !== undefined) {
    const { rows } = await db.query<{ change_id: string }>({
      text: 'SELECT change_id FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2',
      values: [webhookId, cursor],
    });
    if (!rows[0]) throw new UnknownCursorError(query.after !== undefined ? 'after' : 'before');
    values.push(rows[0].change_id);
    condition = query.after !== undefined ? 'AND change_id < $2' : 'AND change_id > $2';
    if (query.after === undefined) direction = 'ASC';
  }
  values.push(query.limit + 1);
  const { rows } = await db.query<DeliveryRow>({
    text: `SELECT id, type, created_at, status, next_attempt_at, payload FROM webhook_deliveries
           WHERE webhook_id = $1 ${condition} ORDER BY change_id ${direction} LIMIT $${values.length}`,
    values,
  });
  const deliveries = rows.slice(0, query.limit).map(fromDeliveryRow);
  if (direction === 'ASC') deliveries.reverse();
  return { deliveries, hasMore: rows.length > query.limit };
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
  let condition = '';
  let direction = 'DESC';
  if (query.after !== undefined) {
    values.push(query.after);
    condition = 'AND id < $2';
  } else if (query.before !== undefined) {
    values.push(query.before);
    condition = 'AND id > $2';
    direction = 'ASC';
  }
  values.push(query.limit + 1);
  const { rows } = await db.query<{
    id: string;
    http_status_code: number;
    response: string;
    sent_at: Date;
    duration_ms: number;
  }>({
    text: `SELECT id, http_status_code, response, sent_at, duration_ms FROM webhook_attempts
           WHERE delivery_id = $1 ${condition} ORDER BY id ${direction} LIMIT $${values.length}`,
    values,
  });
  const attempts = rows.slice(0, query.limit).map((row) => ({
    id: row.id,
    httpStatusCode: row.http_status_code,
    response: row.response,
    sentAt: row.sent_at,
    durationMs: row.duration_ms,
  }));
  if (direction === 'ASC') attempts.reverse();
  return { attempts, hasMore: rows.length > query.limit };
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
