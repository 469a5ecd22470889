import DataLoader from 'dataloader';
import type { Suppression } from '../domain/suppression.js';
import type { Queryable } from './database.js';
import { findSuppressionsByEmails, findSuppressionsByIds } from './suppression-repository.js';

/**
 * Lookups of entries by address or id that concurrent requests share: every lookup asked for in the
 * same turn of the event loop goes to the database in one query per account, a single lookup and a
 * check of a thousand addresses alike. Nothing is cached: each answer is read when it is asked for.
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

// Past this many values, a batch's query for one account is split: it bounds one statement's array.
const MAX_VALUES_PER_QUERY = 5000;

type Find = (db: Queryable, accountId: string, values: readonly string[]) => Promise<Suppression[]>;

async function findAll(db: Queryable, find: Find, accountId: string, values: readonly string[]) {
  const found: Suppression[] = [];
  for (let start = 0; start < values.length; start += MAX_VALUES_PER_QUERY) {
    found.push(...(await find(db, accountId, values.slice(start, start + MAX_VALUES_PER_QUERY))));
  }
  return found;
}

function loader(db: Queryable, find: Find, keyOf: (entry: Suppression) => string) {
  return new DataLoader<Lookup, (Suppression | null)[] | Error, Lookup>(
    async (lookups) => {
      const byAccount = new Map<string, Set<string>>();
      for (const { accountId, values } of lookups) {
        const wanted = byAccount.get(accountId) ?? new Set<string>();
        if (wanted.size === 0) byAccount.set(accountId, wanted);
        for (const value of values) wanted.add(value);
      }
      const found = new Map<string, Map<string, Suppression>>();
      // One account's failed query fails that account's lookups only, each with the error itself.
      const failed = new Map<string, Error>();
      await Promise.all(
        [...byAccount].map(async ([accountId, wanted]) => {
          try {
            const entries = await findAll(db, find, accountId, [...wanted]);
            found.set(accountId, new Map(entries.map((entry) => [keyOf(entry), entry])));
          } catch (error) {
            failed.set(accountId, error instanceof Error ? error : new Error(String(error)));
          }
        }),
      );
      return lookups.map(({ accountId, values }) => {
        const entries = found.get(accountId);
        if (!entries) return failed.get(accountId) as Error;
        return values.map((value) => entries.get(value) ?? null);
      });
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
  const one = async (from: typeof emails, accountId: string, value: string) =>
    ((await from.load({ accountId, values: [value] })) as (Suppression | null)[])[0] ?? null;
  return {
    byEmail: (accountId, email) => one(emails, accountId, email),
    byId: (accountId, id) => one(ids, accountId, id),
    async byEmails(accountId, values) {
      if (values.length === 0) return [];
      return (await emails.load({ accountId, values })) as (Suppression | null)[];
    },
  };
}
