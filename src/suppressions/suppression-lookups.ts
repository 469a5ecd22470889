import DataLoader from 'dataloader';
import type { Suppression } from './suppression.js';
import type { CheckFilter } from '../check-filter/filter-options.js';
import type { HashedAddresses } from '../check-filter/hashed-addresses.js';
import { ANY_NAMED_SCOPE } from '../check-filter/key-filter.js';
import type { Queryable } from '../db/database.js';
import type { Reads } from '../db/reads.js';
import { storedScope, type Scope } from '../domain/scope.js';
import { keptIn, screened } from './screened-lookup.js';
import {
  findStoppingEntries,
  findSuppressionsByEmails,
  findSuppressionsByIds,
  type AccountValues,
  type Positioned,
  type StoppingEntry,
} from './entries-by-pairs.js';

/**
 * Lookups of entries by address or id that concurrent requests share: every lookup asked for in the
 * same turn of the event loop, of any account, a single address or a check's thousand, goes to the
 * database in one query. Nothing is cached by the loaders: each answer is read when it is asked
 * for. With the check filter, an address it shows to be certainly absent is not asked about at all,
 * and the check answers a "maybe" its entry cache holds from there (`screened`).
 */
export interface SuppressionLookups {
  /** The address's entry in this scope (the whole account's when null). */
  byEmail(accountId: string, email: string, scope?: Scope): Promise<Suppression | null>;
  /** The entry with this id, whatever its scope. */
  byId(accountId: string, id: string): Promise<Suppression | null>;
  /**
   * The entry that stops a send in this scope to each address, in the order given (null where there
   * is none): the whole account's, else the scope's own. Without a scope, the whole account's only.
   * Each as the check answers with it: its address, and its resource as JSON text. The addresses
   * are distinct, and come with the filter's hash of each when `distinctHashed` told them apart.
   */
  suppressing(
    accountId: string,
    addresses: readonly string[] | HashedAddresses,
    scope?: Scope,
  ): Promise<(StoppingEntry | null)[]>;
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

// Triples per statement: a batch larger than this (several checks at once) is split into several.
const MAX_PAIRS_PER_QUERY = 5000;

type Find<T> = (db: Queryable, pairs: AccountValues) => Promise<Positioned<T>[]>;

/** The triples at these positions of `pairs`. */
function pick(pairs: AccountValues, positions: readonly number[]): AccountValues {
  return {
    accountIds: positions.map((at) => pairs.accountIds[at] as string),
    values: positions.map((at) => pairs.values[at] as string),
    scopes: positions.map((at) => pairs.scopes[at] as string),
  };
}

/** The same answers, each at the position `of` gives for its own. */
const renumbered = <T>(found: Positioned<T>[], of: (at: number) => number): Positioned<T>[] =>
  found.map(({ at, item }) => ({ at: of(at), item }));

/**
 * Every triple's entry, `MAX_PAIRS_PER_QUERY` triples a statement, the statements side by side on
 * as many connections: one after the other, a batch of several checks kept one server process busy
 * while the others idled.
 */
async function findAll<T>(db: Queryable, find: Find<T>, pairs: AccountValues): Promise<Positioned<T>[]> {
  const count = pairs.values.length;
  if (count <= MAX_PAIRS_PER_QUERY) return find(db, pairs);
  const chunks: Promise<Positioned<T>[]>[] = [];
  for (let start = 0; start < count; start += MAX_PAIRS_PER_QUERY) {
    const end = Math.min(count, start + MAX_PAIRS_PER_QUERY);
    const chunk = {
      accountIds: pairs.accountIds.slice(start, end),
      values: pairs.values.slice(start, end),
      scopes: pairs.scopes.slice(start, end),
    };
    chunks.push(find(db, chunk).then((found) => renumbered(found, (at) => start + at)));
  }
  return (await Promise.all(chunks)).flat();
}

/**
 * The triples' entries, on a replica for the accounts that may read from one and on the primary for
 * the others (those that have just written): one Redis round trip for the whole batch.
 */
async function findRouted<T>(
  db: Queryable,
  reads: Reads | undefined,
  find: Find<T>,
  pairs: AccountValues,
): Promise<Positioned<T>[]> {
  if (!reads?.replicated) return findAll(db, find, pairs);
  const { replica, primaryReason } = await reads.route(pairs.accountIds);
  const onReplica: number[] = [];
  const onPrimary: number[] = [];
  pairs.accountIds.forEach((accountId, at) => (replica.has(accountId) ? onReplica : onPrimary).push(at));
  const findSome = async (target: Queryable, positions: number[]) =>
    renumbered(await findAll(target, find, pick(pairs, positions)), (at) => positions[at] as number);
  const [fromReplica, fromPrimary] = await Promise.all([
    onReplica.length > 0 ? reads.onReplica((target) => findSome(target, onReplica)) : [],
    onPrimary.length > 0 ? reads.onPrimary((target) => findSome(target, onPrimary), primaryReason) : [],
  ]);
  return [...fromReplica, ...fromPrimary];
}

/**
 * A loader whose batch asks every lookup's values in one statement (more past
 * `MAX_PAIRS_PER_QUERY`), each lookup's triples one after the other, and gives each lookup the
 * answers at its own positions: no key is built for a value, and two requests that ask about the
 * same address each have it looked up.
 */
function loader<T>(db: Queryable, reads: Reads | undefined, find: Find<T>) {
  return new DataLoader<Lookup, (T | null)[], Lookup>(
    async (lookups) => {
      const accountIds: string[] = [];
      const values: string[] = [];
      const scopes: string[] = [];
      for (const lookup of lookups) {
        for (const value of lookup.values) {
          accountIds.push(lookup.accountId);
          values.push(value);
          scopes.push(lookup.scope);
        }
      }
      const answers = new Array<T | null>(values.length).fill(null);
      for (const { at, item } of await findRouted(db, reads, find, { accountIds, values, scopes })) answers[at] = item;
      let start = 0;
      return lookups.map((lookup) => answers.slice(start, (start += lookup.values.length)));
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

/**
 * The lookups of one router. With `reads` (replicas configured), each batch reads from a replica for
 * the accounts that have not just written, and from the primary for the others. With `filter`, the
 * lookups by address and the checks ask the database only about the addresses it may hold: it
 * follows the primary, so an address it shows absent is absent there too.
 */
export function createSuppressionLookups(db: Queryable, reads?: Reads, filter?: CheckFilter): SuppressionLookups {
  const exact = loader(db, reads, (target, pairs) => findSuppressionsByEmails(target, pairs, 'exact'));
  const sending = loader(db, reads, (target, pairs) => findStoppingEntries(target, pairs, 'sending'));
  const covering = loader(db, reads, (target, pairs) => findStoppingEntries(target, pairs, 'covering'));
  const ids = loader(db, reads, findSuppressionsByIds);
  // A replica may answer from before a change the filter has applied: what it finds is not kept.
  const kept = (accountId: string, scope: string) =>
    filter && !reads?.replicated ? keptIn(filter, accountId, scope) : undefined;
  return {
    byEmail: async (accountId, email, scope = null) => {
      const stored = storedScope(scope);
      const [found] = await screened(filter, { accountId, scopes: [stored], values: [email] }, (values) =>
        exact.load({ accountId, scope: stored, values }),
      );
      return found ?? null;
    },
    byId: async (accountId, id) => (await ids.load({ accountId, scope: '', values: [id] }))[0] ?? null,
    suppressing: async (accountId, addresses, scope = null) => {
      const { emails: values, heads } = 'heads' in addresses ? addresses : { emails: addresses, heads: undefined };
      if (values.length === 0) return [];
      if (scope === null) {
        return screened(
          filter,
          { accountId, scopes: [''], values, heads },
          (asked) => sending.load({ accountId, scope: '', values: asked }),
          kept(accountId, ''),
        );
      }
      const stored = storedScope(scope);
      // A send in a scope is stopped by the whole account's entry or the scope's own: both keys are asked.
      return screened(
        filter,
        { accountId, scopes: ['', stored], values, heads },
        (asked) => covering.load({ accountId, scope: stored, values: asked }),
        kept(accountId, stored),
      );
    },
    unlisted: async (accountId, email) => {
      if (!filter) return false;
      const { early, settled } = filter.screenEarly(accountId, ['', ANY_NAMED_SCOPE], [email]);
      // "Maybe" now is "maybe" after any round: the caller asks the database without waiting for one.
      if (early?.[0] === true) return false;
      const maybe = await settled();
      if (maybe?.[0] !== false) return false;
      filter.answered({ absent: 1, confirmed: 0, unconfirmed: 0 });
      return true;
    },
  };
}
