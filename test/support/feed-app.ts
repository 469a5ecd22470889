import type { ScopeSource } from '../../src/feeds/message-scope.js';
import { createFeed } from '../../src/feeds/feed-repository.js';
import type { Queryable } from '../../src/db/database.js';
import { feedPath, newFeedId, type Feed } from '../../src/feeds/feed.js';
import type { Provider } from '../../src/feeds/providers/index.js';
import type { FeedSettingsInput } from '../../src/feeds/feed-provider.js';
import { feedSettings } from '../../src/feeds/feed-settings.js';
import { newApiAccount, useTestApp, type ApiAccount, type TestApp, type TestAppOptions } from './test-app.js';
import type { RunningServer } from '../../api/server.js';
import { useEventWorkerBeside } from './test-event-worker.js';

export interface FeedApp extends TestApp {
  /**
   * A new account, and a feed of it for `provider` reading scopes from `scopeFrom`; for Postmark, the
   * generated credentials too.
   */
  newFeed(
    provider: Provider,
    input?: FeedSettingsInput,
    scopeFrom?: ScopeSource | null,
  ): Promise<{ feed: Feed; account: ApiAccount; shown: Record<string, string | string[]> }>;
  /** POSTs a provider's request to a feed of the file's app (or of `server`). */
  send(feed: Feed, body: string, headers?: Record<string, string>, server?: RunningServer): Promise<FeedAnswer>;
}

export interface FeedAnswer {
  status: number;
  body: any;
}

/**
 * For the whole test file: the real app with Redis and the file's queues, and the real event worker
 * writing to the app's database, so a feed request travels as it does in production.
 */
export function useFeedApp(options: TestAppOptions = {}): FeedApp {
  const app = useTestApp({ redis: 'live', queues: true, ...options });
  useEventWorkerBeside(app);

  return Object.assign(Object.create(app) as object, {
    async newFeed(provider: Provider, input: FeedSettingsInput = {}, scopeFrom: ScopeSource | null = null) {
      const account = await newApiAccount(app);
      const settings = feedSettings(provider, input);
      const feed = await createFeed(app.database.db, {
        id: newFeedId(),
        accountId: account.accountId,
        provider,
        verification: settings.verification,
        scopeFrom,
      });
      return { feed, account, shown: settings.shown };
    },
    async send(feed: Feed, body: string, headers: Record<string, string> = {}, server = app.server) {
      const response = await fetch(`${server.url}${feedPath(feed.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  }) as FeedApp;
}

export interface FeedEventRow {
  event_id: string;
  type: string;
  email: string;
  source_id: string;
  bounce_type: string | null;
  outcome: string;
  provider_message_id: string | null;
}

/** The audit trail of one account, oldest first, with the fields a feed sets. */
export async function accountEvents(db: Queryable, accountId: string): Promise<FeedEventRow[]> {
  const { rows } = await db.query<FeedEventRow>({
    text: `SELECT event_id, type, email, source_id, bounce_type, outcome, provider_message_id
           FROM suppression_events WHERE account_id = $1 ORDER BY received_at, event_id`,
    values: [accountId],
  });
  return rows;
}
