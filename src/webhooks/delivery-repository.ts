import { newId } from '../domain/ids.js';
import { scopeOfStored } from '../domain/scope.js';
import type { Origin } from '../domain/origins.js';
import type { SuppressionChange } from './change-payload.js';
import type { DeliveryStatus, DueDelivery } from './delivery.js';
import type { WebhookEventType, WebhookStatus } from './webhook.js';
import type { Queryable } from '../db/database.js';

interface ChangeRow {
  id: string;
  account_id: string;
  type: WebhookEventType;
  suppression_id: string;
  email: string;
  origin: Origin;
  source_id: string | null;
  scope: string;
  suppression_created_at: Date;
  created_at: Date;
  trace_context: string | null;
}

/**
 * Up to `limit` outbox rows, oldest first, locked until the caller's transaction ends: concurrent
 * dispatchers take disjoint rows (SKIP LOCKED).
 */
export async function takeChanges(db: Queryable, limit: number): Promise<SuppressionChange[]> {
  const { rows } = await db.query<ChangeRow>({
    text: `SELECT id, account_id, type, suppression_id, email, origin, source_id, scope, suppression_created_at, created_at,
                  trace_context
           FROM suppression_changes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    values: [limit],
  });
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    entry: {
      id: row.suppression_id,
      accountId: row.account_id,
      email: row.email,
      origin: row.origin,
      sourceId: row.source_id,
      scope: scopeOfStored(row.scope),
      createdAt: row.suppression_created_at,
    },
    createdAt: row.created_at,
    ...(row.trace_context === null ? {} : { traceparent: row.trace_context }),
  }));
}

/**
 * Makes one delivery of each taken change, carrying its payload, per webhook of its account that
 * subscribes to its type (`webhook_subscribes`, the rule the outbox trigger follows too), and
 * deletes the changes from the outbox; returns the deliveries made, to be queued.
 */
export async function deliverChanges(
  db: Queryable,
  outgoing: readonly { change: SuppressionChange; payload: string }[],
): Promise<DueDelivery[]> {
  const ids = outgoing.map(({ change }) => change.id);
  const { rows } = await db.query<{ id: string; change_id: string }>({
    text: `INSERT INTO webhook_deliveries (id, webhook_id, change_id, type, payload, created_at, next_attempt_at)
           SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, c.change_id, c.type, c.payload,
                  c.created_at, now()
           FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[])
                AS c(change_id, account_id, type, payload, created_at)
           JOIN webhooks w ON w.account_id = c.account_id AND webhook_subscribes(w, c.type)
           -- The changes are locked by takeChanges and deleted in this transaction, so none is
           -- delivered twice; each month's own unique key on (webhook_id, change_id) holds it too.
           ORDER BY c.change_id, w.id
           RETURNING id, change_id`,
    values: [
      ids,
      outgoing.map(({ change }) => change.entry.accountId),
      outgoing.map(({ change }) => change.type),
      outgoing.map(({ payload }) => payload),
      outgoing.map(({ change }) => change.createdAt),
    ],
  });
  await db.query({ text: 'DELETE FROM suppression_changes WHERE id = ANY($1::bigint[])', values: [ids] });
  const traces = new Map(outgoing.map(({ change }) => [change.id, change.traceparent]));
  return rows.map((row) => {
    const traceparent = traces.get(String(row.change_id));
    return { deliveryId: row.id, attempt: 0, roundStart: 0, ...(traceparent ? { traceparent } : {}) };
  });
}

export interface DeliveryTarget {
  id: string;
  payload: string;
  attemptCount: number;
  roundStart: number;
  webhookStatus: WebhookStatus;
  endpoint: string;
  /** The current secret, and the previous one while it still signs. */
  secrets: string[];
}

/** How long a rotated-out secret goes on signing. */
const PREVIOUS_SECRET_HOURS = 24;

/**
 * The delivery and where it goes, if it is still due at this attempt; null when it was delivered,
 * given up, removed, or moved on to another attempt since the job was queued.
 */
export async function findDeliveryTarget(
  db: Queryable,
  deliveryId: string,
  attempt: number,
): Promise<DeliveryTarget | null> {
  const { rows } = await db.query<{
    id: string;
    payload: string;
    attempt_count: number;
    round_start: number;
    webhook_status: WebhookStatus;
    endpoint: string;
    signing_secret: string;
    previous_signing_secret: string | null;
  }>({
    name: 'webhook-delivery-target',
    text: `SELECT d.id, d.payload, d.attempt_count, d.round_start, w.status AS webhook_status, w.endpoint,
                  w.signing_secret,
                  CASE WHEN w.secret_rotated_at > now() - make_interval(hours => ${PREVIOUS_SECRET_HOURS})
                       THEN w.previous_signing_secret END AS previous_signing_secret
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id = $1 AND d.attempt_count = $2 AND d.status IN ('pending', 'attempting')`,
    values: [deliveryId, attempt],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    payload: row.payload,
    attemptCount: row.attempt_count,
    roundStart: row.round_start,
    webhookStatus: row.webhook_status,
    endpoint: row.endpoint,
    secrets: row.previous_signing_secret ? [row.signing_secret, row.previous_signing_secret] : [row.signing_secret],
  };
}

export interface AttemptRecord {
  deliveryId: string;
  /** The attempt count the delivery had when this attempt was made; a stale attempt records nothing. */
  attempt: number;
  httpStatusCode: number;
  response: string;
  sentAt: Date;
  durationMs: number;
  /** What the delivery becomes, and when it is next tried if it is retried. */
  status: Exclude<DeliveryStatus, 'pending'>;
  nextAttemptAt: Date | null;
}

/** Records an attempt and the delivery's new state together; false when another attempt got there first. */
export async function recordAttempt(db: Queryable, attempt: AttemptRecord): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'record-webhook-attempt',
    text: `WITH attempt AS (
             INSERT INTO webhook_attempts (id, delivery_id, http_status_code, response, sent_at, duration_ms)
             SELECT $3, id, $4, $5, $6, $7 FROM webhook_deliveries
             WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'attempting')
             RETURNING delivery_id
           )
           UPDATE webhook_deliveries d SET attempt_count = d.attempt_count + 1, status = $8, next_attempt_at = $9
           FROM attempt WHERE d.id = attempt.delivery_id`,
    values: [
      attempt.deliveryId,
      attempt.attempt,
      newId(),
      attempt.httpStatusCode,
      attempt.response,
      attempt.sentAt,
      attempt.durationMs,
      attempt.status,
      attempt.nextAttemptAt,
    ],
  });
  return (rowCount ?? 0) > 0;
}

/** Gives a due delivery up without an attempt (its webhook was disabled); it can still be replayed. */
export async function abandonDelivery(db: Queryable, deliveryId: string, attempt: number): Promise<void> {
  await db.query({
    text: `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL
           WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'attempting')`,
    values: [deliveryId, attempt],
  });
}

/** Deliveries due more than `graceMs` ago: their job was lost (a process died, or Redis lost it). */
export async function findOverdueDeliveries(db: Queryable, graceMs: number, limit: number): Promise<DueDelivery[]> {
  const { rows } = await db.query<{ id: string; attempt_count: number; round_start: number }>({
    text: `SELECT id, attempt_count, round_start FROM webhook_deliveries
           WHERE status IN ('pending', 'attempting') AND next_attempt_at < now() - make_interval(secs => $1 / 1000.0)
           ORDER BY next_attempt_at LIMIT $2`,
    values: [graceMs, limit],
  });
  return rows.map((row) => ({ deliveryId: row.id, attempt: row.attempt_count, roundStart: row.round_start }));
}

/**
 * Seconds since the oldest change that is neither delivered to every webhook it is for nor given up:
 * still in the outbox, or with a delivery pending or being retried. 0 when there is none.
 */
export async function oldestUndeliveredChangeAge(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ age: number | null }>({
    name: 'oldest-undelivered-change',
    text: `SELECT extract(epoch FROM now() - least(
             (SELECT created_at FROM suppression_changes ORDER BY id LIMIT 1),
             (SELECT min(created_at) FROM webhook_deliveries WHERE status IN ('pending', 'attempting'))
           ))::float8 AS age`,
  });
  return Math.max(0, rows[0]?.age ?? 0);
}
