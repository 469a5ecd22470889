/**
 * After a chaos run: every event that was published (or accepted from a feed) compared, row by
 * row, with what the database holds.
 */
import type { EventType } from '../../src/events/event-schema.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../src/db/database.js';

export interface ExpectedEvent {
  accountId: string;
  eventId: string;
  /** Normalised, as the list stores it. */
  email: string;
  type: EventType;
  /** A complaint or a permanent bounce: its address must be on the list. */
  suppressing: boolean;
}

export interface ChaosVerdict {
  /** Published events with no row. */
  lost: number;
  /** Events with more than one row, and addresses with more than one entry. */
  doubled: number;
  /** Rows that are not what their event must produce, rows of no event, and entries missing or extra. */
  wrong: number;
  /** What each wrong count was. */
  details: string[];
}

const text = (value: string): string => value.replace(/[\\\t\n\r]/g, ' ');

async function loadExpected(db: Database, expected: readonly ExpectedEvent[]): Promise<void> {
  await db.query({
    text: `CREATE TABLE chaos_expected (account_id uuid, event_id text, email text, type text, suppressing boolean,
                                        PRIMARY KEY (account_id, event_id))`,
  });
  const client = await db.pool.connect();
  try {
    const rows = function* (): Generator<string> {
      for (const event of expected) {
        yield `${event.accountId}\t${text(event.eventId)}\t${text(event.email)}\t${event.type}\t${event.suppressing ? 't' : 'f'}\n`;
      }
    };
    await pipeline(Readable.from(rows()), client.query(copyFrom('COPY chaos_expected FROM STDIN')));
  } finally {
    client.release();
  }
}

async function count(db: Database, sql: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>({ text: `SELECT count(*) AS n FROM (${sql}) AS found` });
  return Number(rows[0]?.n ?? 0);
}

export async function verifyChaos(db: Database, expected: readonly ExpectedEvent[]): Promise<ChaosVerdict> {
  await loadExpected(db, expected);
  const lost = await count(
    db,
    `SELECT 1 FROM chaos_expected e
      WHERE NOT EXISTS (SELECT 1 FROM suppression_events s WHERE s.account_id = e.account_id AND s.event_id = e.event_id)`,
  );
  const doubled =
    (await count(db, 'SELECT 1 FROM suppression_events GROUP BY account_id, event_id HAVING count(*) > 1')) +
    (await count(db, 'SELECT 1 FROM suppressions GROUP BY account_id, email HAVING count(*) > 1'));
  const wrongCounts: [string, string][] = [
    [
      'events recorded with another address or type than published',
      `SELECT 1 FROM suppression_events s JOIN chaos_expected e USING (account_id, event_id)
        WHERE s.email <> e.email OR s.type <> e.type`,
    ],
    [
      'events recorded that were never published',
      `SELECT 1 FROM suppression_events s
        WHERE NOT EXISTS (SELECT 1 FROM chaos_expected e WHERE e.account_id = s.account_id AND e.event_id = s.event_id)`,
    ],
    [
      // An address whose events were all lost is counted once, as lost.
      'addresses of recorded suppressing events not on the list',
      `SELECT account_id, email FROM chaos_expected e
        WHERE suppressing
          AND EXISTS (SELECT 1 FROM suppression_events s WHERE s.account_id = e.account_id AND s.event_id = e.event_id)
       EXCEPT SELECT account_id, email FROM suppressions`,
    ],
    [
      'entries on the list of no suppressing event',
      `SELECT account_id, email FROM suppressions
       EXCEPT SELECT account_id, email FROM chaos_expected WHERE suppressing`,
    ],
  ];
  const details: string[] = [];
  let wrong = 0;
  for (const [what, sql] of wrongCounts) {
    const found = await count(db, sql);
    wrong += found;
    if (found > 0) details.push(`${what}: ${found}`);
  }
  return { lost, doubled, wrong, details };
}
