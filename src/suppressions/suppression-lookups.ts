import DataLoader from 'dataloader';
import type { Suppression } from './suppression.js';
import type { CheckFilter } from '../check-filter/filter-options.js';
import { ANY_NAMED_SCOPE } from '../check-filter/key-filter.js';
import type { Queryable } from '../db/database.js';
import type { Reads } from '../db/reads.js';
import { storedScope, type Scope } from '../domain/scope.js';
import {
  findSuppressionsByEmails,
  findSuppressionsByIds,
  type AccountValues,
  type Found,
  type ScopeMatch,
} from './suppression-repository.js';

/**
 * Lookups of entries by address or id that concurrent requests share: every lookup asked for in the
 * same turn of the event loop, of any account, a single address or a check's thousand, goes to the
 * database in one query. Nothing is cached: each answer is read when it is asked for. With the
 * check filter, an address it shows to be certainly absent is not asked about at all.
 */
export interface SuppressionLookups {
  /** The address's entry in this scope (the whole account's when null). */
  byEmail(accountId: string, email: string, scope?: Scope): Promise<Suppression | null>;
  /** The entry with this id, whatever its scope. */
  byId(accountId: string, id: string): Promise<Suppression | null>;
  /**
   * The entry that stops a send in this scope to each address, in the order given (null where there
   * is none): the whole account's, else the scope's own. Without a scope, the whole account's only.
   */
  suppressing(accountId: string, emails: readonly string[], scope?: Scope): Promise<(Suppression | null)[]>;
  /**
   * Whether the filter shows that the address has no entry in any scope, without a query: false
   * when it may have one, and when there is no filter to ask.
   */
  unlisted(accountId: string, email: string): Promise<boolean>;
}

/** One request's lookup: one key of the loader, however many values it asks about. */
interface Lookup {
  accountId: string;
  /** The scope as stored ('' for the whole account). */
  scope: string;
  values: readonly string[];
}

// Pairs per statement: a batch larger than this (several checks at once) is split into several.
const MAX_PAIRS_PER_QUERY = 5000;

type Find = (db: Queryable, pairs: AccountValues) => Promise<Found[]>;

interface Pair {
  accountId: string;
  scope: string;
  value: string;
}

const pairKey = (accountId: string, scope: string, value: string): string => `${accountId}\n${scope}\n${value}`;

/**
 * Every pair's entries, `MAX_PAIRS_PER_QUERY` pairs a statement, the statements side by side on as
 * many connections: one after the other, a batch of several checks kept one server process busy
 * while the others idled.
 */
async function findAll(db: Queryable, find: Find, pairs: readonly Pair[]): Promise<Found[]> {
  const chunks: Pair[][] = [];
  for (let start = 0; start < pairs.length; start += MAX_PAIRS_PER_QUERY) {
    chunks.push(pairs.slice(start, start + MAX_PAIRS_PER_QUERY));
  }
  const found = await Promise.all(
    chunks.map((chunk) =>
      find(db, {
        accountIds: chunk.map((pair) => pair.accountId),
        values: chunk.map((pair) => pair.value),
        scopes: chunk.map((pair) => pair.scope),
      }),
    ),
  );
  return found.flat();
}

/**
 * The pairs' entries, on a replica for the accounts that may read from one and on the primary for
 * the others (those that have just written): one Redis round trip for the whole batch.
 */
async function findRouted(db: Queryable, reads: Reads | undefined, find: Find, pairs: Pair[]): Promise<Found[]> {
  if (!reads?.replicated) return findAll(db, find, pairs);
  const { replica, primaryReason } = await reads.route(pairs.map((pair) => pair.accountId));
  const replicaPairs = pairs.filter((pair) => replica.has(pair.accountId));
  const primaryPairs = replicaPairs.length === 0 ? pairs : pairs.filter((pair) => !replica.has(pair.accountId));
  const [fromReplica, fromPrimary] = await Promise.all([
    replicaPairs.length > 0 ? reads.onReplica((target) => findAll(target, find, replicaPairs)) : [],
    primaryPairs.length > 0 ? reads.onPrimary((target) => findAll(target, find, primaryPairs), primaryReason) : [],
  ]);
  return [...fromReplica, ...fromPrimary];
}

function loader(db: Queryable, reads: Reads | undefined, find: Find, valueOf: (entry: Suppression) => string) {
  return new DataLoader<Lookup, (Suppression | null)[], Lookup>(
    async (lookups) => {
      const wanted = new Map<string, Pair>();
      for (const { accountId, scope, values } of lookups) {
        for (const value of values) wanted.set(pairKey(accountId, scope, value), { accountId, scope, value });
      }
      const found = new Map<string, Suppression>();
      for (const { askedScope, entry } of await findRouted(db, reads, find, [...wanted.values()]))
        found.set(pairKey(entry.accountId, askedScope, valueOf(entry)), entry);
      return lookups.map(({ accountId, scope, values }) =>
        values.map((value) => found.get(pairKey(accountId, scope, value)) ?? null),
      );
    },
    {
      cache: false,
      // Each request arrives in an I/O callback of its own, and DataLoader's default (the end of the
      // current callback) would batch one request with itself. `setImmediate` runs once the loop has
      // handled every I/O event it has, which gathers the requests that arrived together; it is not a
      // timer, so a lone request waits for nothing but the end of that turn.
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    },
  );
}

const byEmailsMatching =
  (match: ScopeMatch): Find =>
  (db, pairs) =>
    findSuppressionsByEmails(db, pairs, match);

/** The positions below `length` at which `holds` is true, in order. */
function positionsWhere(length: number, holds: (index: number) => boolean): number[] {
  const positions: number[] = [];
  for (let index = 0; index < length; index += 1) if (holds(index)) positions.push(index);
  return positions;
}

/**
 * The entries of these addresses, asking the database only about those the filter may hold (all
 * of them when it cannot answer), and telling it what the database found of its "maybe"s. The
 * addresses it may hold already are asked about while its round runs; the round settles the others,
 * and only those its changes added are asked about after it.
 */
async function screened(
  filter: CheckFilter | undefined,
  lookup: { accountId: string; scopes: readonly string[]; values: readonly string[] },
  load: (values: readonly string[]) => Promise<(Suppression | null)[]>,
): Promise<(Suppression | null)[]> {
  const { accountId, scopes, values } = lookup;
  if (!filter) return load(values);
  const { early, settled } = filter.screenEarly(accountId, scopes, values);
  const loadSome = (some: readonly string[]) => (some.length > 0 ? load(some) : Promise.resolve([]));
  const earlyAt = early ? positionsWhere(values.length, (index) => early[index] === true) : [];
  const foundEarly = loadSome(earlyAt.map((index) => values[index] as string));
  // Awaited below; a failure while the round runs is not an unhandled one meanwhile.
  foundEarly.catch(() => undefined);
  const maybe = await settled;
  const lateAt = positionsWhere(values.length, (index) => !early?.[index] && (maybe?.[index] ?? true));
  const [first, late] = await Promise.all([foundEarly, loadSome(lateAt.map((index) => values[index] as string))]);
  // Each answer goes back to the position it was asked from: no address is looked up again.
  const answers = new Array<Suppression | null>(values.length).fill(null);
  let confirmed = 0;
  const place = (positions: readonly number[], entries: readonly (Suppression | null)[]) =>
    positions.forEach((position, index) => {
      const entry = entries[index] ?? null;
      answers[position] = entry;
      if (entry !== null) confirmed += 1;
    });
  place(earlyAt, first);
  place(lateAt, late);
  if (maybe) {
    const asked = earlyAt.length + lateAt.length;
    filter.answered({ absent: values.length - asked, confirmed, unconfirmed: asked - confirmed });
  }
  return answers;
}

/**
 * The lookups of one router. With `reads` (replicas configured), each batch reads from a replica for
 * the accounts that have not just written, and from the primary for the others. With `filter`, the
 * lookups by address and the checks ask the database only about the addresses it may hold: it
 * follows the primary, so an address it shows absent is absent there too.
 */
export function createSuppressionLookups(db: Queryable, reads?: Reads, filter?: CheckFilter): SuppressionLookups {
  const exact = loader(db, reads, byEmailsMatching('exact'), (entry) => entry.email);
  const sending = loader(db, reads, byEmailsMatching('sending'), (entry) => entry.email);
  const covering = loader(db, reads, byEmailsMatching('covering'), (entry) => entry.email);
  const ids = loader(db, reads, findSuppressionsByIds, (entry) => entry.id);
  return {
    byEmail: async (accountId, email, scope = null) => {
      const stored = storedScope(scope);
      const [found] = await screened(filter, { accountId, scopes: [stored], values: [email] }, (values) =>
        exact.load({ accountId, scope: stored, values }),
      );
      return found ?? null;
    },
    byId: async (accountId, id) => (await ids.load({ accountId, scope: '', values: [id] }))[0] ?? null,
    suppressing: async (accountId, values, scope = null) => {
      if (values.length === 0) return [];
      if (scope === null) {
        return screened(filter, { accountId, scopes: [''], values }, (asked) =>
          sending.load({ accountId, scope: '', values: asked }),
        );
      }
      const stored = storedScope(scope);
      // A send in a scope is stopped by the whole account's entry or the scope's own: both keys are asked.
      return screened(filter, { accountId, scopes: ['', stored], values }, (asked) =>
        covering.load({ accountId, scope: stored, values: asked }),
      );
    },
    unlisted: async (accountId, email) => {
      const maybe = await filter?.screen(accountId, ['', ANY_NAMED_SCOPE], [email]);
      if (maybe?.[0] !== false) return false;
      filter?.answered({ absent: 1, confirmed: 0, unconfirmed: 0 });
      return true;
    },
  };
}
