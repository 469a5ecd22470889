import type { Queryable } from '../../db/database.js';
import type { MailSource } from './mail-job.js';
import type { RecordResult } from './message-evidence.js';
import type { UnverifiedReason } from '../../domain/mail-records.js';

export interface MailMessageRow {
  digest: string;
  accountId: string | null;
  source: MailSource;
  receivedAt: string;
  size: number;
  format: string;
  verified: boolean;
  unverifiedReason: UnverifiedReason | null;
  records: readonly RecordResult[];
}

/** Whether the message with these bytes has been read already. */
export async function mailMessageRead(db: Queryable, digest: string): Promise<boolean> {
  const { rows } = await db.query({
    name: 'mail-message-read',
    text: 'SELECT 1 FROM mail_messages WHERE digest = $1',
    values: [Buffer.from(digest, 'hex')],
  });
  return rows.length > 0;
}

/** Records a message once its events are queued; a second reading of the same bytes records nothing. */
export async function recordMailMessage(db: Queryable, row: MailMessageRow): Promise<void> {
  await db.query({
    name: 'mail-message-record',
    text: `INSERT INTO mail_messages (digest, account_id, source, received_at, size, format, verified, unverified_reason, records)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (digest) DO NOTHING`,
    values: [
      Buffer.from(row.digest, 'hex'),
      row.accountId,
      row.source,
      row.receivedAt,
      row.size,
      row.format,
      row.verified,
      row.unverifiedReason,
      JSON.stringify(row.records),
    ],
  });
}

/**
 * How long a message's record is kept: longer than any mail system retries a delivery (five days
 * in Postfix), so that a redelivered message is still known; its events stay in the audit trail.
 */
export const MAIL_MESSAGE_RETENTION_MS = 30 * 24 * 3600_000;

/** Removes the records of messages received before `cutoff`; returns how many. */
export async function deleteMailMessagesBefore(db: Queryable, cutoff: Date): Promise<number> {
  const { rowCount } = await db.query({ text: 'DELETE FROM mail_messages WHERE received_at < $1', values: [cutoff] });
  return rowCount ?? 0;
}
