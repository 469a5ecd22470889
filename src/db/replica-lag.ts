/**
 * A replica's lag measured in WAL positions rather than with `pg_last_xact_replay_timestamp()`: that
 * timestamp is the time of the last transaction replayed, so on an idle primary a replica that has
 * replayed everything looks as old as the last write. Instead the primary's `pg_current_wal_lsn()`
 * is sampled on a clock of this process, and a replica is as stale as the newest sample it has
 * replayed past.
 */

/** How often the primary and each replica are asked for their WAL positions. */
export const REPLICA_POLL_INTERVAL_MS = 200;

/** How far back the primary's positions are kept: a replica further behind is reported at least this late. */
const TIMELINE_SPAN_MS = 5 * 60_000;

/** A primary's WAL position, held from its first sample to its last (a position repeats while the primary is idle). */
interface Sample {
  lsn: bigint;
  firstAt: number;
  lastAt: number;
}

/** Where a replica stands against the primary's samples. */
export interface ReplayPosition {
  /**
   * The time of the newest sample the replica has replayed past: every transaction the primary had
   * committed when that sample was asked for is on the replica. Undefined when it has replayed past
   * none that is kept.
   */
  caughtUpTo: number | undefined;
  /** Whether it has replayed past the newest sample: caught up, however long the primary has been idle. */
  atNewest: boolean;
  /** Its lag in ms as of `now`: 0 when it is at the newest sample. */
  lagMs: number;
}

/** The primary's WAL positions over the last minutes, each with the time of this process's clock it was asked at. */
export class PrimaryTimeline {
  private readonly samples: Sample[] = [];

  /**
   * Records the position the primary answered to a question sent at `askedAt`: a transaction whose
   * commit was acknowledged before then ends at or below it.
   */
  record(askedAt: number, lsn: bigint): void {
    const last = this.samples.at(-1);
    if (last && lsn <= last.lsn) {
      // The position has not moved since: the same sample, seen later.
      last.lastAt = Math.max(last.lastAt, askedAt);
    } else {
      this.samples.push({ lsn, firstAt: askedAt, lastAt: askedAt });
    }
    while (this.samples.length > 1 && (this.samples[0] as Sample).lastAt < askedAt - TIMELINE_SPAN_MS) {
      this.samples.shift();
    }
  }

  /** Whether any sample was taken yet. */
  get empty(): boolean {
    return this.samples.length === 0;
  }

  /** Where a replica whose replay position is `replayLsn` stands, at `now`. */
  position(replayLsn: bigint, now: number): ReplayPosition {
    const newest = this.samples.at(-1);
    if (newest === undefined) return { caughtUpTo: undefined, atNewest: false, lagMs: 0 };
    if (replayLsn >= newest.lsn) return { caughtUpTo: newest.lastAt, atNewest: true, lagMs: 0 };
    // The newest sample at or below the replay position: the replica has every transaction
    // acknowledged before it was asked for. Those after it may be missing.
    for (let index = this.samples.length - 2; index >= 0; index -= 1) {
      const sample = this.samples[index] as Sample;
      if (sample.lsn <= replayLsn) {
        return { caughtUpTo: sample.lastAt, atNewest: false, lagMs: Math.max(0, now - sample.lastAt) };
      }
    }
    const oldest = this.samples[0] as Sample;
    return { caughtUpTo: undefined, atNewest: false, lagMs: Math.max(0, now - oldest.firstAt) };
  }
}

/** `X/Y`, PostgreSQL's text of a WAL position, as a number of bytes. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}
