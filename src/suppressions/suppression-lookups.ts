import DataLoader from 'dataloader';
import type { Suppression } from './suppression.js';
import type { Queryable } from '../db/database.js';
import { findSuppressionsByEmails, findSuppressionsByIds, type AccountValues } from './suppression-repository.js';

/**
 * Lookups of entries by address or id that concurrent requests share: every lookup asked for in the
 * same turn of the event loop, of any account, a single address or a check's thousand, goes to the
 * database in one query. Nothing is cached: each answer is read when it is asked for.
 */
export interface SuppressionLookups {
  byEmail(accountId: string, email: string): Promise<Suppression | null>;
  byId(accountId: string, id: string): Promise<Suppression | null>;
  /** The entry of each address, in the order given (null where there is none). */
  byEmails(accountId: string, emails: readonly string[]): Promise<(Suppression | null)[]>;
}

/** One request's lookup: one key of the loader, however many values it asks about. */
interface Lookup {
  accountId: string;
  values: readonly string[];
}

// Pairs per statement: a batch larger than this (several checks at once) is split into several.
const MAX_PAIRS_PER_QUERY = 5000;

type Find = (db: Queryable, pairs: AccountValues) => Promise<Suppression[]>;

const pairKey = (accountId: string, value: string): string => `${accountId}\n${value}`;

function loader(db: Queryable, find: Find, valueOf: (entry: Suppression) => string) {
  return new DataLoader<Lookup, (Suppression | null)[], Lookup>(
    async (lookups) => {
      const wanted = new Map<string, { accountId: string; value: string }>();
      for (const { accountId, values } of lookups) {
        for (const value of values) wanted.set(pairKey(accountId, value), { accountId, value });
      }
      const pairs = [...wanted.values()];
      const found = new Map<string, Suppression>();
      for (let start = 0; start < pairs.length; start += MAX_PAIRS_PER_QUERY) {
        const chunk = pairs.slice(start, start + MAX_PAIRS_PER_QUERY);
        const entries = await find(db, {
          accountIds: chunk.map((pair) => pair.accountId),
          values: chunk.map((pair) => pair.value),
        });
        for (const entry of entries) found.set(pairKey(entry.accountId, valueOf(entry)), entry);
      }
      return lookups.map(({ accountId, values }) =>
        values.map((value) => found.get(pairKey(accountId, value)) ?? null),
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

export function createSuppressionLookups(db: Queryable): SuppressionLookups {
  const emails = loader(db, findSuppressionsByEmails, (entry) => entry.email);
  const ids = loader(db, findSuppressionsByIds, (entry) => entry.id);
  return {
    byEmail: async (accountId, email) => (await emails.load({ accountId, values: [email] }))[0] ?? null,
    byId: async (accountId, id) => (await ids.load({ accountId, values: [id] }))[0] ?? null,
    byEmails: async (accountId, values) => (values.length === 0 ? [] : emails.load({ accountId, values })),
  };
}
