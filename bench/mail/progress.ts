import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../src/db/database.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';

/** How far the bench's messages got: read by the mail worker, applied by the event worker. */
export async function progress(db: Database): Promise<{ read: number; applied: number }> {
  const { rows } = await db.query<{ read: string; applied: string }>({
    text: `SELECT (SELECT count(*) FROM mail_messages) AS read,
                  (SELECT count(*) FROM event_receipts WHERE event_id LIKE 'mail:%') AS applied`,
  });
  return { read: Number(rows[0]?.read ?? 0), applied: Number(rows[0]?.applied ?? 0) };
}

/** Seconds from `started` until `target` messages are read, and until as many are applied. */
export async function secondsUntil(
  db: Database,
  deadline: Deadline,
  target: number,
  started: number,
): Promise<{ read: number; applied: number }> {
  const done: { read?: number; applied?: number } = {};
  const poll = async () => {
    while (!deadline.signal.aborted) {
      const now = await progress(db);
      const at = (performance.now() - started) / 1000;
      if (now.read >= target) done.read ??= at;
      if (now.applied >= target) done.applied ??= at;
      if (done.read !== undefined && done.applied !== undefined) return { read: done.read, applied: done.applied };
      await sleep(25);
    }
    throw deadline.signal.reason as Error;
  };
  return beforeDeadline(deadline, poll());
}

/** Resolves once at least `target` messages are read (or applied) in all. */
export async function reached(
  db: Database,
  deadline: Deadline,
  what: 'read' | 'applied',
  target: number,
): Promise<void> {
  const poll = async () => {
    while (!deadline.signal.aborted) {
      if ((await progress(db))[what] >= target) return;
      await sleep(10);
    }
    throw deadline.signal.reason as Error;
  };
  return beforeDeadline(deadline, poll());
}

/** The digests of `accepted` whose event (the DSN's one record) is not in the audit trail. */
export async function notApplied(db: Database, accepted: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ digest: string }>({
    text: `SELECT digest FROM unnest($1::text[]) AS digest
           WHERE NOT EXISTS (SELECT 1 FROM event_receipts WHERE event_id = 'mail:' || digest || ':0')`,
    values: [accepted],
  });
  return rows.map((row) => row.digest);
}
