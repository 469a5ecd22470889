import type { StoppingEntry } from './entries-by-pairs.js';
import type { CheckFilter } from '../check-filter/filter-options.js';

/** The positions below `length` at which `holds` is true, in order. */
function positionsWhere(length: number, holds: (index: number) => boolean): number[] {
  const positions: number[] = [];
  for (let index = 0; index < length; index += 1) if (holds(index)) positions.push(index);
  return positions;
}

/**
 * Where what a lookup found of the filter's "maybe" addresses is kept to answer it again (the
 * check's entry cache, for one account and scope asked).
 */
interface Kept<T> {
  /** The entry kept for this address; null when it is kept as having none; undefined when nothing is kept. */
  get(email: string): T | null | undefined;
  /**
   * Called as a read of the database begins; what it returns keeps what the read found of these
   * addresses, their absences too when each was a "maybe" of the filter's.
   */
  begin(): (emails: readonly string[], found: readonly (T | null)[], absences: boolean) => void;
}

/**
 * The entries of these addresses, asking the database only about those the filter may hold (all
 * of them when it cannot answer), and telling it what the database found of its "maybe"s. The
 * addresses it may hold already are asked about while its round runs; the round settles the others,
 * and only those its changes added are asked about after it. When every address is asked about at
 * once, no round is waited for: a "maybe" stays one. With `kept`, a "maybe" address whose
 * entry (or absence) is kept once the round has settled is answered from it, without a query: the
 * round applied every change committed before this lookup began, and a change drops what it makes
 * wrong. An absence is kept only of a "maybe": kept of every address a fallback asked about, the
 * cache would fill with the list's recipients.
 */
export async function screened<T>(
  filter: CheckFilter | undefined,
  lookup: { accountId: string; scopes: readonly string[]; values: readonly string[]; heads?: Uint16Array },
  load: (values: readonly string[]) => Promise<(T | null)[]>,
  kept?: Kept<T>,
): Promise<(T | null)[]> {
  const { accountId, scopes, values, heads } = lookup;
  if (!filter) return load(values);
  const loadSome = async (positions: readonly number[], maybes: boolean): Promise<(T | null)[]> => {
    if (positions.length === 0) return [];
    const keep = kept?.begin();
    const asked = positions.map((index) => values[index] as string);
    const found = await load(asked);
    keep?.(asked, found, maybes);
    return found;
  };
  const { early, settled } = filter.screenEarly(accountId, scopes, values, heads);
  // An address kept now waits for the round, which may drop it, rather than being asked about.
  const earlyAt = early
    ? positionsWhere(
        values.length,
        (index) => early[index] === true && kept?.get(values[index] as string) === undefined,
      )
    : [];
  const askedEarly = new Array<boolean>(values.length).fill(false);
  for (const index of earlyAt) askedEarly[index] = true;
  const foundEarly = loadSome(earlyAt, true);
  // Awaited below; a failure while the round runs is not an unhandled one meanwhile.
  foundEarly.catch(() => undefined);
  // The database answers every address asked at once as of now; a round could only settle the others.
  const maybe = early && earlyAt.length === values.length ? early : await settled();
  // Each answer goes back to the position it was asked from: no address is looked up again.
  const answers = new Array<T | null>(values.length).fill(null);
  let cached = 0;
  let cachedAbsent = 0;
  const lateAt: number[] = [];
  for (let index = 0; index < values.length; index += 1) {
    if (askedEarly[index] || !(maybe?.[index] ?? true)) continue;
    // Without a settled round the cache may be behind: the database answers every address.
    const entry = maybe ? kept?.get(values[index] as string) : undefined;
    if (entry === undefined) lateAt.push(index);
    else if (entry === null) cachedAbsent += 1;
    else {
      answers[index] = entry;
      cached += 1;
    }
  }
  const [first, late] = await Promise.all([foundEarly, loadSome(lateAt, maybe !== undefined)]);
  let confirmed = 0;
  const place = (positions: readonly number[], entries: readonly (T | null)[]) =>
    positions.forEach((position, index) => {
      const entry = entries[index] ?? null;
      answers[position] = entry;
      if (entry !== null) confirmed += 1;
    });
  place(earlyAt, first);
  place(lateAt, late);
  if (maybe) {
    const asked = earlyAt.length + lateAt.length;
    filter.answered({
      absent: values.length - asked - cached - cachedAbsent,
      cached,
      cachedAbsent,
      confirmed,
      unconfirmed: asked - confirmed,
    });
  }
  return answers;
}

/** The check filter's entry cache for one account and scope asked ('' for the whole account). */
export function keptIn(filter: CheckFilter, accountId: string, scope: string): Kept<StoppingEntry> {
  return {
    get: (email) => filter.cached(accountId, scope, email),
    begin() {
      const ticket = filter.cacheTicket(accountId);
      return (emails, found, absences) => {
        if (!ticket) return;
        found.forEach((entry, index) => {
          if (entry !== null || absences) filter.keep(ticket, scope, emails[index] as string, entry);
        });
      };
    },
  };
}
