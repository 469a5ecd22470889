import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { maintainPartitions } from '../../src/maintenance/partitions-job.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { createLogger } from '../../src/logger.js';
import { listHistory } from '../../src/suppressions/suppression-history.js';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { listAttempts, listDeliveries } from '../../src/webhooks/event-log.js';
import { databaseUrlFor } from '../support/database-url.js';
import { bounceEvent } from '../support/test-events.js';
import { onServer } from '../support/test-database.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));
/** The migrations from the partitioning (0017) on: reverting them all returns to plain tables. */
const FROM_PARTITIONING = readdirSync(MIGRATIONS).filter(
  (file) => /^\d{4}_/.test(file) && Number(file.slice(0, 4)) >= 17,
).length;
const ACCOUNT = '0190f0a0-0000-7000-8000-000000000001';
const WEBHOOK = '0190f0a0-0000-7000-8000-0000000000bb';
const LEGACY_ROWS = 20_000;
const name = `sl_test_partitioning_${process.pid}`;
const url = databaseUrlFor(inject('databaseUrl'), name);
let db: Database;

async function migrateBy(direction: 'up' | 'down', count: number): Promise<void> {
  await runner({
    databaseUrl: url,
    dir: MIGRATIONS,
    migrationsTable: 'pgmigrations',
    direction,
    count,
    singleTransaction: false,
    log: () => undefined,
  });
}

async function record(inputs: SuppressionEventInput[]): Promise<string[]> {
  const results = await recordEventBatch(db, inputs.map(parseSuppressionEvent), classifyBounce);
  return results.map((result) => result.outcome);
}

async function count(sql: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>({ text: `SELECT (${sql})::int AS n`, values: [] });
  return rows[0]!.n;
}

beforeAll(async () => {
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(`CREATE DATABASE ${name}`);
  db = createDatabase({ url, poolSize: 3, logger: createLogger('silent') });
  await migrateBy('up', 15);
  // A trail written before partitioning: one suppressing bounce with its entry, and many others.
  await db.query({ text: `INSERT INTO accounts (id, name) VALUES ($1, 'before-partitioning')`, values: [ACCOUNT] });
  await db.query({
    text: `INSERT INTO suppressions (id, account_id, email, origin) VALUES ('0190f0a0-0000-7000-8000-0000000000aa', $1, 'old@legacy.example', 'bounce')`,
    values: [ACCOUNT],
  });
  await db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, outcome, suppression_id, received_at)
           SELECT $1, 'legacy-' || g, 'bounce', CASE WHEN g = 1 THEN 'old@legacy.example' ELSE 'other-' || g || '@legacy.example' END,
                  'permanent', CASE WHEN g = 1 THEN 'suppressed' ELSE 'not_suppressed' END,
                  CASE WHEN g = 1 THEN '0190f0a0-0000-7000-8000-0000000000aa'::uuid END, now() - g * interval '1 minute'
           FROM generate_series(1, $2::int) g`,
    values: [ACCOUNT, LEGACY_ROWS],
  });
  // A webhook's event log from before: a delivery and its attempt.
  await db.query({
    text: `INSERT INTO webhooks (id, account_id, endpoint, events, signing_secret)
           VALUES ($2, $1, 'https://hooks.example.com/old', '{}', 'whsec_old')`,
    values: [ACCOUNT, WEBHOOK],
  });
  await db.query({
    text: `INSERT INTO webhook_deliveries (id, webhook_id, change_id, type, payload, created_at, status, attempt_count)
           VALUES ('msg_legacy', $1, 1, 'suppression.added', '{}', now() - interval '1 hour', 'attempting', 1)`,
    values: [WEBHOOK],
  });
  await db.query({
    text: `INSERT INTO webhook_attempts (id, delivery_id, http_status_code, response, sent_at, duration_ms)
           VALUES ('0190f0a0-0000-7000-8000-0000000000cc', 'msg_legacy', 503, 'busy', now() - interval '1 hour', 7)`,
    values: [],
  });
});

afterAll(async () => {
  await db.close();
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('the migrations that partition the audit trail and the webhook log by month', () => {
  it('when a database with a trail is migrated, then the old table is the partition of everything before the first month and nothing is lost', async () => {
    await migrate(url, createLogger('silent'));
    const { rows } = await db.query<{ name: string }>({
      text: `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'suppression_events'::regclass ORDER BY 1`,
      values: [],
    });
    expect(rows.map((row) => row.name)).toContain('suppression_events_legacy');
    expect(await count('SELECT count(*) FROM suppression_events')).toBe(LEGACY_ROWS);
    const { records } = await listHistory(db, ACCOUNT, 'old@legacy.example', { limit: 10 });
    expect(records.map((item) => item.eventId)).toEqual(['legacy-1']);
  });

  it('when the webhook log from before is read and tried again, then its delivery and attempts are there', async () => {
    const { deliveries } = await listDeliveries(db, WEBHOOK, { limit: 10 });
    expect(deliveries.map((item) => [item.id, item.status])).toEqual([['msg_legacy', 'attempting']]);
    const recorded = await recordAttempt(db, {
      deliveryId: 'msg_legacy',
      attempt: 1,
      httpStatusCode: 200,
      response: 'ok',
      sentAt: new Date(),
      durationMs: 3,
      status: 'success',
      nextAttemptAt: null,
    });
    expect(recorded).toBe(true);
    const { attempts } = await listAttempts(db, 'msg_legacy', { limit: 10 });
    expect(attempts.map((attempt) => attempt.httpStatusCode)).toEqual([200, 503]);
  });

  it('when an event recorded before the migration is redelivered, then it is a duplicate', async () => {
    const again = { ...bounceEvent(ACCOUNT, 'other-7@legacy.example'), event_id: 'legacy-7' };
    expect(await record([again])).toEqual(['duplicate']);
    const fresh = bounceEvent(ACCOUNT, 'new@legacy.example');
    expect(await record([fresh, fresh])).toEqual(['suppressed', 'duplicate']);
    expect(await record([fresh])).toEqual(['duplicate']);
  });

  it('when it is reverted, then plain tables hold every record again with their keys', async () => {
    await migrateBy('down', FROM_PARTITIONING);
    expect(await count(`SELECT count(*) FROM suppression_events`)).toBe(LEGACY_ROWS + 1);
    expect(await count(`SELECT count(*) FROM pg_inherits WHERE inhparent = 'suppression_events'::regclass`)).toBe(0);
    expect(
      await count(`SELECT count(*) FROM pg_constraint WHERE conname = 'suppression_events_pkey' AND contype = 'p'`),
    ).toBe(1);
    expect(await count(`SELECT count(*) FROM webhook_attempts WHERE delivery_id = 'msg_legacy'`)).toBe(2);
    expect(await count(`SELECT count(*) FROM pg_constraint WHERE conname = 'webhook_attempts_delivery_id_fkey'`)).toBe(
      1,
    );
    await migrate(url, createLogger('silent'));
    expect(await count('SELECT count(*) FROM suppression_audit_trail')).toBe(LEGACY_ROWS + 1);
  });

  it('when the retention passes the end of the old table, then it is dropped and its entry still says why', async () => {
    const { rows } = await db.query<{ until: Date }>({
      text: `SELECT legacy_until AS until FROM month_partitioning WHERE parent = 'suppression_events'`,
      values: [],
    });
    const later = new Date(rows[0]!.until.getTime() + 31 * 86_400_000);
    const result = await maintainPartitions(db, 30, later);
    expect(result.dropped).toContain('suppression_events_legacy');
    // The two entries' deciding records: the old bounce, and the one recorded since into the same partition.
    expect(result.kept).toBe(2);
    expect(
      await count(
        `SELECT count(*) FROM month_partitioning WHERE parent = 'suppression_events' AND legacy_until = '-infinity'`,
      ),
    ).toBe(1);
    const { records } = await listHistory(db, ACCOUNT, 'old@legacy.example', { limit: 10 });
    expect(records.map((item) => [item.eventId, item.outcome])).toEqual([['legacy-1', 'suppressed']]);
    expect(await listHistory(db, ACCOUNT, 'other-7@legacy.example', { limit: 10 })).toEqual({
      records: [],
      hasMore: false,
    });
  });
});
