import { FEED_ID_PATTERN, type Feed } from './feed.js';
import type { ScopeSource } from './message-scope.js';
import type { Provider, VerificationOf } from './providers/index.js';
import type { Queryable } from '../db/database.js';

interface FeedRow {
  id: string;
  account_id: string;
  provider: Provider;
  verification: VerificationOf[Provider];
  scope_from: ScopeSource | null;
  created_at: Date;
}

const fromRow = (row: FeedRow): Feed =>
  ({
    id: row.id,
    accountId: row.account_id,
    provider: row.provider,
    verification: row.verification,
    scopeFrom: row.scope_from,
    createdAt: row.created_at,
  }) as Feed;

/** A new feed; without `scopeFrom` it reads no scope, and every event is for the whole account. */
export async function createFeed(
  db: Queryable,
  feed: Omit<Feed, 'createdAt' | 'scopeFrom'> & { scopeFrom?: ScopeSource | null },
): Promise<Feed> {
  const { rows } = await db.query<FeedRow>({
    text: `INSERT INTO feeds (id, account_id, provider, verification, scope_from) VALUES ($1, $2, $3, $4, $5)
           RETURNING id, account_id, provider, verification, scope_from, created_at`,
    values: [feed.id, feed.accountId, feed.provider, JSON.stringify(feed.verification), feed.scopeFrom ?? null],
  });
  return fromRow(rows[0] as FeedRow);
}

/** The feed with this id, or null; an id that cannot be one is not looked up. */
export async function findFeed(db: Queryable, id: string): Promise<Feed | null> {
  if (!FEED_ID_PATTERN.test(id)) return null;
  const { rows } = await db.query<FeedRow>({
    name: 'find-feed',
    text: 'SELECT id, account_id, provider, verification, scope_from, created_at FROM feeds WHERE id = $1',
    values: [id],
  });
  return rows[0] ? fromRow(rows[0]) : null;
}

export interface ListedFeed {
  id: string;
  accountId: string;
  accountName: string;
  provider: Provider;
  createdAt: Date;
}

/** Feeds, oldest first, without anything they are verified with. */
export async function listFeeds(db: Queryable, accountId?: string): Promise<ListedFeed[]> {
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    account_name: string;
    provider: Provider;
    created_at: Date;
  }>({
    text: `SELECT f.id, f.account_id, a.name AS account_name, f.provider, f.created_at
           FROM feeds f JOIN accounts a ON a.id = f.account_id
           WHERE $1::uuid IS NULL OR f.account_id = $1
           ORDER BY f.created_at, f.id`,
    values: [accountId ?? null],
  });
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    provider: row.provider,
    createdAt: row.created_at,
  }));
}

/** Removes a feed; its requests are answered 404 from then on. False when there was none. */
export async function removeFeed(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query({ text: 'DELETE FROM feeds WHERE id = $1', values: [id] });
  return (rowCount ?? 0) > 0;
}
