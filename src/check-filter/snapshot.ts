/**
 * A snapshot of the primary as `pg_current_snapshot()` prints it, `xmin:xmax:xip,...`: the
 * transactions it sees are those below `xmax`, not in the list, that committed. Every transaction
 * below `xmin` had ended when it was taken.
 */
export interface Snapshot {
  readonly text: string;
  /** A transaction id (xid8), as text: ids pass 2^53 on a long-lived server. */
  readonly xmin: string;
}

export function parseSnapshot(text: string): Snapshot {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new Error(`not a snapshot: ${text}`);
  return { text, xmin: text.slice(0, colon) };
}

/** Before every transaction: the tail from it reads every change there is. */
export const BEFORE_ANY: Snapshot = parseSnapshot('1:1:');
