import type { Queryable } from '../../src/db/database.js';

export interface StoredEvent {
  eventId: string;
  type: string;
  email: string;
  outcome: string;
  suppressionId: string | null;
  apiKeyId: string | null;
}

/** The audit trail of one address in one account, oldest first, as the tests read it back. */
export async function eventsForEmail(db: Queryable, accountId: string, email: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<{
    event_id: string;
    type: string;
    email: string;
    outcome: string;
    suppression_id: string | null;
    api_key_id: string | null;
  }>({
    text: `SELECT event_id, type, email, outcome, suppression_id, api_key_id FROM suppression_events
           WHERE account_id = $1 AND email = $2 ORDER BY received_at`,
    values: [accountId, email],
  });
  return rows.map((row) => ({
    eventId: row.event_id,
    type: row.type,
    email: row.email,
    outcome: row.outcome,
    suppressionId: row.suppression_id,
    apiKeyId: row.api_key_id,
  }));
}
