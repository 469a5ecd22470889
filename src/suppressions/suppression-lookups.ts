import DataLoader from 'dataloader';
import type { Suppression } from './suppression.js';
import type { Queryable } from '../db/database.js';
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
 * database in one query. Nothing is cached: each answer is read when it is asked for.
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

const pairKey = (accountId: string, scope: string, value: string): string => `${accountId}\n${scope}\n${value}`;

function loader(db: Queryable, find: Find, valueOf: (entry: Suppression) => string) {
  return new DataLoader<Lookup, (Suppression | null)[], Lookup>(
    async (lookups) => {
      const wanted = new Map<string, { accountId: string; scope: string; value: string }>();
      for (const { accountId, scope, values } of lookups) {
        for (const value of values) wanted.set(pairKey(accountId, scope, value), { accountId, scope, value });
      }
      const pairs = [...wanted.values()];
      const found = new Map<string, Suppression>();
      for (let start = 0; start < pairs.length; start += MAX_PAIRS_PER_QUERY) {
        const chunk = pairs.slice(start, start + MAX_PAIRS_PER_QUERY);
        const entries = await find(db, {
          accountIds: chunk.map((pair) => pair.accountId),
          values: chunk.map((pair) => pair.value),
          scopes: chunk.map((pair) => pair.scope),
        });
        for (const { askedScope, entry } of entries)
          found.set(pairKey(entry.accountId, askedScope, valueOf(entry)), entry);
      }
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

export function createSuppressionLookups(db: Queryable): SuppressionLookups {
  const exact = loader(db, byEmailsMatching('exact'), (entry) => entry.email);
  const sending = loader(db, byEmailsMatching('sending'), (entry) => entry.email);
  const covering = loader(db, byEmailsMatching('covering'), (entry) => entry.email);
  const ids = loader(db, findSuppressionsByIds, (entry) => entry.id);
  return {
    byEmail: async (accountId, email, scope = null) =>
      (await exact.load({ accountId, scope: storedScope(scope), values: [email] }))[0] ?? null,
    byId: async (accountId, id) => (await ids.load({ accountId, scope: '', values: [id] }))[0] ?? null,
    suppressing: async (accountId, values, scope = null) => {
      if (values.length === 0) return [];
      if (scope === null) return sending.load({ accountId, scope: '', values });
      return covering.load({ accountId, scope: storedScope(scope), values });
    },
  };
}
