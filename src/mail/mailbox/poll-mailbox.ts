import type { ImapFlow } from 'imapflow';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { readCheckpoint, saveCheckpoint } from './checkpoint-repository.js';
import type { ImapMailbox } from './imap-mailbox.js';

/** What became of a message: queued, or set aside as larger than MAIL_MAX_MESSAGE_BYTES. */
export type ImapOutcome = 'queued' | 'too_large' | 'queue_failed';

export interface PollDeps {
  db: Database;
  logger: Logger;
  /** Queues one message; resolves once Redis holds it. */
  queue(raw: Buffer, receivedAt: Date): Promise<unknown>;
  maxBytes: number;
  after: Config['IMAP_AFTER'];
  count(outcome: ImapOutcome): void;
  /** Whether the poller is stopping: the poll ends after the message in hand. */
  stopping(): boolean;
}

/** The flag a message larger than MAIL_MAX_MESSAGE_BYTES gets, for a person to look at it. */
const TOO_LARGE_FLAG = '\\Flagged';

/** What one message becomes in the mailbox once queued. */
async function dispose(client: ImapFlow, uid: number, after: Config['IMAP_AFTER']): Promise<void> {
  const range = String(uid);
  if (after.action === 'move') {
    // A move that fails leaves the message where it was, and the checkpoint where it was:
    // the next poll queues the same bytes again, which the digest makes one message.
    const moved = await client.messageMove(range, after.folder, { uid: true });
    if (moved === false) throw new Error(`the message could not be moved to ${after.folder}`);
  } else if (after.action === 'flag') {
    await client.messageFlagsAdd(range, ['\\Seen'], { uid: true });
  }
}

/**
 * One look at the mailbox: every message above the checkpoint, in UID order, is queued (or, too
 * large, flagged and counted), then moved or flagged as IMAP_AFTER says, then checkpointed, one by
 * one. A message whose queueing failed ends the poll with nothing after it touched, so that the
 * next poll starts from it. Returns how many messages it took.
 */
export async function pollMailbox(client: ImapFlow, mailbox: ImapMailbox, deps: PollDeps): Promise<number> {
  const lock = await client.getMailboxLock(mailbox.folder);
  try {
    const opened = client.mailbox;
    if (opened === false) throw new Error(`the folder ${mailbox.folder} is not open`);
    const uidValidity = opened.uidValidity;
    const checkpoint = await readCheckpoint(deps.db, mailbox.key);
    const changed = checkpoint !== null && checkpoint.uidValidity !== uidValidity;
    if (changed) deps.logger.warn({ mailbox: mailbox.where }, 'the mailbox’s UIDVALIDITY changed: reading it again');
    const from = checkpoint === null || changed ? 0 : checkpoint.lastUid;
    if (opened.exists === 0) return 0;
    // Sizes first, sources one at a time: a large message is never downloaded, and the whole
    // answer of a FETCH is read before any other command may run.
    const listed = await client.fetchAll(`${from + 1}:*`, { uid: true, size: true, internalDate: true }, { uid: true });
    // `n:*` names the last message even when its UID is below n.
    const fresh = listed.filter((message) => message.uid > from).sort((a, b) => a.uid - b.uid);
    const destination = deps.after.action === 'move' ? deps.after.folder : undefined;
    if (destination !== undefined && fresh.length > 0) await client.mailboxCreate(destination);
    let taken = 0;
    for (const message of fresh) {
      if (deps.stopping()) break;
      const size = message.size ?? 0;
      if (size > deps.maxBytes) {
        if (deps.after.action !== 'keep')
          await client.messageFlagsAdd(String(message.uid), [TOO_LARGE_FLAG], { uid: true });
        deps.count('too_large');
        deps.logger.warn(
          { mailbox: mailbox.where, uid: message.uid, size, maxBytes: deps.maxBytes },
          'mail message too large: left in the mailbox',
        );
      } else {
        const fetched = await client.fetchOne(String(message.uid), { source: true }, { uid: true });
        // A message gone between the listing and now (another client moved it) is nobody's to queue.
        if (fetched !== false && fetched.source !== undefined) {
          const receivedAt =
            message.internalDate instanceof Date && !Number.isNaN(message.internalDate.getTime())
              ? message.internalDate
              : new Date();
          try {
            await deps.queue(fetched.source, receivedAt);
          } catch (error) {
            deps.count('queue_failed');
            throw error;
          }
          deps.count('queued');
          deps.logger.debug({ mailbox: mailbox.where, uid: message.uid, size }, 'mail message queued');
          await dispose(client, message.uid, deps.after);
        }
      }
      await saveCheckpoint(deps.db, mailbox.key, { uidValidity, lastUid: message.uid });
      taken += 1;
    }
    return taken;
  } finally {
    lock.release();
  }
}
