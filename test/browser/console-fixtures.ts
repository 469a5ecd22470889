import { issueApiKey } from '../../src/db/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import { addSuppressions } from '../../src/db/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/suppression.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { bounceEvent } from '../support/test-events.js';

export interface ConsoleAccount {
  accountId: string;
  keyId: string;
  token: string;
}

/** An account of the given name with one full_access key. */
export async function accountNamed(db: Database, name: string): Promise<ConsoleAccount> {
  const key = await issueApiKey(db, { accountName: name, permission: 'full_access', name: 'console' });
  return { accountId: key.accountId, keyId: key.keyId, token: key.token };
}

/** Adds entries one by one, in this order: the last is the newest, and so first in the list. */
export async function addEntries(
  db: Database,
  accountId: string,
  emails: readonly string[],
  origin: Origin = 'manual',
) {
  for (const email of emails) {
    await addSuppressions(db, accountId, [{ id: newId(), email, origin, sourceId: null }]);
  }
}

/** Records events as the event worker does: a permanent bounce puts its address on the list. */
export async function recordEvents(db: Database, ...events: SuppressionEventInput[]): Promise<void> {
  await recordEventBatch(db, events.map(parseSuppressionEvent));
}

/** A permanent bounce with its own SMTP status and diagnostic, at a fixed time. */
export function bounceWith(
  accountId: string,
  email: string,
  bounce: {
    status: string;
    diagnostic: string;
    occurredAt: string;
    type?: 'permanent' | 'transient';
    sourceId?: string;
  },
): SuppressionEventInput {
  const event = bounceEvent(accountId, email, bounce.type ?? 'permanent');
  return {
    ...event,
    source_id: bounce.sourceId ?? event.source_id,
    occurred_at: bounce.occurredAt,
    bounce: {
      type: bounce.type ?? 'permanent',
      sub_type: 'general',
      status: bounce.status,
      diagnostic: bounce.diagnostic,
    },
  };
}

/**
 * Gives the account's entries fixed creation times, a minute apart from `newest` back, in list
 * order, so that the screenshots show the same page on every run.
 */
export async function pinCreationTimes(db: Database, accountId: string, newest: string): Promise<void> {
  await db.query({
    text: `UPDATE suppressions s SET created_at = $2::timestamptz - (ordered.position - 1) * interval '1 minute'
           FROM (SELECT id, row_number() OVER (ORDER BY id DESC) AS position FROM suppressions WHERE account_id = $1) ordered
           WHERE s.account_id = $1 AND s.id = ordered.id`,
    values: [accountId, newest],
  });
}
