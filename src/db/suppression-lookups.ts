import DataLoader from 'dataloader';
import type { Suppression } from '../domain/suppression.js';
import type { Queryable } from './database.js';
import { findSuppressionsByEmails, findSuppressionsByIds } from './suppression-repository.js';

/**
 * Lookups of entries by address or id that concurrent requests share: every lookup asked for in the
 * same turn of the event loop goes to the database in one query per account. Nothing is cached: each
 * answer is read when it is asked for.
 */
export interface SuppressionLookups {
  byEmail(accountId: string, email: string): Promise<Suppression | null>;
  byId(accountId: string, id: string): Promise<Suppression | null>;
  /** The entry of each address, in the order given (null where there is none). */
  byEmails(accountId: string, emails: readonly string[]): Promise<(Suppression | null)[]>;
}

interface Key {
  accountId: string;
  value: string;
}

// Bounds one statement's array; a batch past it is split into several statements.
const MAX_BATCH = 5000;

type Find = (db: Queryable, accountId: string, values: readonly string[]) => Promise<Suppression[]>;

function loader(db: Queryable, find: Find, keyOf: (entry: Suppression) => string) {
  return new DataLoader<Key, Suppression | null, string>(
    async (keys) => {
      const byAccount = new Map<string, string[]>();
      for (const { accountId, value } of keys) {
        const values = byAccount.get(accountId) ?? [];
        if (values.length === 0) byAccount.set(accountId, values);
        values.push(value);
      }
      const found = new Map<string, Suppression>();
      // One account's failed query fails that account's lookups only, each with the error itself.
      const failed = new Map<string, Error>();
      await Promise.all(
        [...byAccount].map(async ([accountId, values]) => {
          try {
            for (const entry of await find(db, accountId, [...new Set(values)])) {
              found.set(`${accountId}\n${keyOf(entry)}`, entry);
            }
          } catch (error) {
            failed.set(accountId, error instanceof Error ? error : new Error(String(error)));
          }
        }),
      );
      return keys.map(({ accountId, value }) => failed.get(accountId) ?? found.get(`${accountId}\n${value}`) ?? null);
    },
    {
      cache: false,
      maxBatchSize: MAX_BATCH,
      cacheKeyFn: ({ accountId, value }) => `${accountId}\n${value}`,
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
    byEmail: (accountId, email) => emails.load({ accountId, value: email }),
    byId: (accountId, id) => ids.load({ accountId, value: id }),
    async byEmails(accountId, values) {
      const results = await emails.loadMany(values.map((value) => ({ accountId, value })));
      // loadMany settles each key on its own; a failed batch fails the whole lookup, never part of it.
      const failed = results.find((result) => result instanceof Error);
      if (failed) throw failed;
      return results as (Suppression | null)[];
    },
  };
}
