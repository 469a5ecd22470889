import type { Queryable } from '../../db/database.js';

/** How far a mailbox has been read: its UIDVALIDITY, and the highest UID done under it. */
export interface MailboxCheckpoint {
  uidValidity: bigint;
  lastUid: number;
}

/** The mailbox's checkpoint, or null before its first message. */
export async function readCheckpoint(db: Queryable, mailbox: string): Promise<MailboxCheckpoint | null> {
  const { rows } = await db.query<{ uid_validity: string; last_uid: string }>({
    name: 'mailbox-checkpoint-read',
    text: 'SELECT uid_validity, last_uid FROM mailbox_checkpoints WHERE mailbox = $1',
    values: [mailbox],
  });
  const row = rows[0];
  return row === undefined ? null : { uidValidity: BigInt(row.uid_validity), lastUid: Number(row.last_uid) };
}

/**
 * Records that every message up to `lastUid` is done. Under the same UIDVALIDITY the checkpoint
 * only moves forward, so a poller that lost a race never takes another's back.
 */
export async function saveCheckpoint(db: Queryable, mailbox: string, checkpoint: MailboxCheckpoint): Promise<void> {
  await db.query({
    name: 'mailbox-checkpoint-save',
    text: `INSERT INTO mailbox_checkpoints (mailbox, uid_validity, last_uid) VALUES ($1, $2, $3)
           ON CONFLICT (mailbox) DO UPDATE SET uid_validity = $2, last_uid = $3, updated_at = now()
           WHERE mailbox_checkpoints.uid_validity <> $2 OR mailbox_checkpoints.last_uid < $3`,
    values: [mailbox, checkpoint.uidValidity.toString(), checkpoint.lastUid],
  });
}
