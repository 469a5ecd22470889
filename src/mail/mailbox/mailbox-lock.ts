import type { Database } from '../../db/database.js';

/**
 * Runs `work` while this process holds the mailbox's advisory lock, or returns false at once when
 * another holds it: every worker process that runs the events workers starts a poller, and one at a
 * time reads a mailbox. The lock is the session's, on a connection kept for the poll, so a process
 * that dies or loses its connection lets go of it.
 */
export async function whileHoldingMailbox(db: Database, mailbox: string, work: () => Promise<void>): Promise<boolean> {
  const client = await db.pool.connect();
  let broken: unknown;
  const onError = (error: Error): void => {
    broken = error;
  };
  client.on('error', onError);
  try {
    const { rows } = await client.query<{ held: boolean }>({
      text: "SELECT pg_try_advisory_lock(hashtextextended('mailbox:' || $1, 0)) AS held",
      values: [mailbox],
    });
    if (rows[0]?.held !== true) return false;
    try {
      await work();
    } finally {
      await client
        .query({ text: "SELECT pg_advisory_unlock(hashtextextended('mailbox:' || $1, 0))", values: [mailbox] })
        .catch((error: unknown) => {
          broken = error;
        });
    }
    return true;
  } finally {
    client.off('error', onError);
    // A connection that failed (or kept the lock) must not go back into the pool.
    client.release(broken !== undefined);
  }
}
