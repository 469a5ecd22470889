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
  return (await mailMessagesRead(db, [digest])).has(digest);
}

/** Which of these messages have been read already, in one statement. */
export async function mailMessagesRead(db: Queryable, digests: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ digest: Buffer }>({
    name: 'mail-messages-read',
    text: 'SELECT digest FROM mail_messages WHERE digest = ANY($1::bytea[])',
    values: [digests.map((digest) => Buffer.from(digest, 'hex'))],
  });
  return new Set(rows.map((row) => row.digest.toString('hex')));
}

/**
 * Records messages, each once its events are queued, in one statement; a message recorded before
 * (the same bytes read again) is left as it is.
 */
export async function recordMailMessages(db: Queryable, rows: readonly MailMessageRow[]): Promise<void> {
  await db.query({
    name: 'mail-messages-record',
    text: `INSERT INTO mail_messages (digest, account_id, source, received_at, size, format, verified, unverified_reason, records)
           SELECT * FROM unnest($1::bytea[], $2::uuid[], $3::text[], $4::timestamptz[], $5::int[], $6::text[],
                                $7::boolean[], $8::text[], $9::jsonb[])
           ON CONFLICT (digest) DO NOTHING`,
    values: [
      rows.map((row) => Buffer.from(row.digest, 'hex')),
      rows.map((row) => row.accountId),
      rows.map((row) => row.source),
      rows.map((row) => row.receivedAt),
      rows.map((row) => row.size),
      rows.map((row) => row.format),
      rows.map((row) => row.verified),
      rows.map((row) => row.unverifiedReason),
      rows.map((row) => JSON.stringify(row.records)),
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
