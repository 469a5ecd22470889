import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import type { Feed } from '../../src/feeds/feed.js';
import type { Provider } from '../../src/feeds/providers/index.js';
import type { FeedSettingsInput } from '../../src/feeds/feed-provider.js';
import { isUuid } from '../../src/domain/ids.js';
import type { ApiAccount, TestAppOptions } from './test-app.js';
import { accountEvents, type FeedApp } from './feed-app.js';
import { eventually } from './test-queue.js';

/** A provider's published sample payload, from test/fixtures/feeds/<provider>/. */
export function fixture(provider: Provider, name: string): string {
  return readFileSync(new URL(`../fixtures/feeds/${provider}/${name}`, import.meta.url), 'utf8');
}

export interface CreatedFeed {
  feed: Feed;
  account: ApiAccount;
  /** What `feeds create` showed: Postmark's generated credentials. */
  shown: Record<string, string | string[]>;
}

export interface SignOptions {
  /** The delivery's id where the provider has one (SNS MessageId, Svix message id): a retry keeps it. */
  id: string;
  /** Signed with the wrong key or secret. */
  forged?: boolean;
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

export interface Expected {
  fixture: string;
  /** The recipients the payload names, each its own event. */
  emails: string[];
}

/** What the shared scenarios need to know of one provider. */
export interface FeedCase {
  provider: Provider;
  /** The options of `feeds create`. */
  settings(): FeedSettingsInput;
  /** Signs a payload as the provider would for this feed. */
  sign(payload: string, created: CreatedFeed, options: SignOptions): SignedRequest;
  /** App options the provider needs (SES: its loopback certificate host). */
  appOptions?(): TestAppOptions;
  permanent: Expected;
  transient: Expected;
  /** Absent where the provider reports no complaints (Postal). */
  complaint?: Expected;
  /** Recipients of one notification (or one batch) that are each their own event; absent where the provider sends one recipient per event. */
  multiRecipient?: Expected & { suppressed: boolean };
  /** A kind the service acknowledges without recording (a delivery). */
  ignored: { fixture: string };
}

let deliveries = 0;
/** A new delivery id, as a provider gives each new message. */
export function deliveryId(): string {
  deliveries += 1;
  return `delivery-${Date.now().toString(36)}-${deliveries}`;
}

const EVERY_STATE = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;

/** The file's events-queue jobs of one account, in the given states (any by default). */
export async function jobsOf(
  app: FeedApp,
  accountId: string,
  states: readonly (typeof EVERY_STATE)[number][] = EVERY_STATE,
): Promise<unknown[]> {
  const jobs = await app.events.queue.getJobs([...states]);
  return jobs.filter((job) => job?.data?.account_id === accountId);
}

/** Waits until no job of the account is left to run. */
export async function drained(app: FeedApp, accountId: string): Promise<void> {
  const pending = ['waiting', 'active', 'delayed', 'prioritized'] as const;
  await eventually(async () => (await jobsOf(app, accountId, pending)).length === 0, 15_000, 'drained queue');
}

/** Waits for the account's audit trail to hold `count` events. */
export async function recorded(app: FeedApp, accountId: string, count: number) {
  await eventually(async () => (await accountEvents(app.database.db, accountId)).length >= count, 15_000, 'events');
  return accountEvents(app.database.db, accountId);
}

/** Waits for the address to be on the feed's account's list, and returns its entry as the API shows it. */
export async function suppression(created: CreatedFeed, email: string): Promise<any> {
  const read = () => created.account.api.get(`/suppressions/${encodeURIComponent(email)}`);
  await eventually(async () => (await read()).status === 200, 15_000, `suppression of ${email}`);
  return (await read()).body;
}

/**
 * The scenarios every provider's feed must pass, end to end: the real app, Redis queue and worker,
 * and the suppression read back through the API.
 */
export function describeFeedScenarios(app: FeedApp, feedCase: FeedCase): { live(): RunningServer } {
  let live: RunningServer;
  let down: RunningServer;
  beforeAll(async () => {
    const options = feedCase.appOptions?.() ?? {};
    live = await app.startApp({ ...options, redis: 'live', queues: true });
    down = await app.startApp({ ...options, redis: 'unreachable', queues: true });
  });

  async function newFeed(): Promise<CreatedFeed> {
    return app.newFeed(feedCase.provider, feedCase.settings());
  }

  async function deliver(created: CreatedFeed, payload: string, options: SignOptions, server = live) {
    const { body, headers } = feedCase.sign(payload, created, options);
    return app.send(created.feed, body, headers, server);
  }

  describe(`${feedCase.provider}: the shared scenarios`, () => {
    it('when a signed permanent bounce arrives, then its recipient is suppressed as a bounce with a UUID source_id', async () => {
      const created = await newFeed();
      const { fixture: name, emails } = feedCase.permanent;
      const answer = await deliver(created, fixture(feedCase.provider, name), { id: deliveryId() });
      expect(answer).toEqual({ status: 200, body: { object: 'feed_delivery', queued: emails.length, ignored: 0 } });
      for (const email of emails) {
        const entry = await suppression(created, email);
        expect(entry).toMatchObject({ object: 'suppression', email, origin: 'bounce' });
        expect(isUuid(entry.source_id)).toBe(true);
      }
      const events = await recorded(app, created.account.accountId, emails.length);
      expect(events.map((event) => event.bounce_type)).toEqual(emails.map(() => 'permanent'));
      expect(events.every((event) => event.provider_message_id !== null)).toBe(true);
    });

    it('when a transient bounce arrives, then it is recorded and its recipient is not suppressed', async () => {
      const created = await newFeed();
      const { fixture: name, emails } = feedCase.transient;
      const answer = await deliver(created, fixture(feedCase.provider, name), { id: deliveryId() });
      expect(answer.status).toBe(200);
      const events = await recorded(app, created.account.accountId, emails.length);
      expect(events.map((event) => [event.email, event.outcome])).toEqual(
        emails.map((email) => [email, 'not_suppressed']),
      );
      for (const email of emails) {
        expect((await created.account.api.get(`/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
      }
    });

    if (feedCase.complaint) {
      const complaint = feedCase.complaint;
      it('when a complaint arrives, then its recipient is suppressed as a complaint', async () => {
        const created = await newFeed();
        const { fixture: name, emails } = complaint;
        expect((await deliver(created, fixture(feedCase.provider, name), { id: deliveryId() })).status).toBe(200);
        for (const email of emails) {
          expect(await suppression(created, email)).toMatchObject({ email, origin: 'complaint' });
        }
      });
    }

    if (feedCase.multiRecipient) {
      const multi = feedCase.multiRecipient;
      it('when one notification names several recipients, then each is an event of its own', async () => {
        const created = await newFeed();
        const answer = await deliver(created, fixture(feedCase.provider, multi.fixture), { id: deliveryId() });
        expect(answer.body.queued).toBe(multi.emails.length);
        const events = await recorded(app, created.account.accountId, multi.emails.length);
        expect(events.map((event) => event.email).sort()).toEqual([...multi.emails].sort());
        expect(new Set(events.map((event) => event.event_id)).size).toBe(multi.emails.length);
        if (multi.suppressed) for (const email of multi.emails) await suppression(created, email);
      });
    }

    it('when a kind that neither suppresses nor records arrives, then it is acknowledged and nothing is queued', async () => {
      const created = await newFeed();
      const answer = await deliver(created, fixture(feedCase.provider, feedCase.ignored.fixture), { id: deliveryId() });
      expect(answer.status).toBe(200);
      expect(answer.body.queued).toBe(0);
      expect(answer.body.ignored).toBeGreaterThan(0);
      expect(await jobsOf(app, created.account.accountId)).toEqual([]);
    });

    it('when the signature or credentials are not the feed’s, then it answers 401 invalid_signature and queues nothing', async () => {
      const created = await newFeed();
      const payload = fixture(feedCase.provider, feedCase.permanent.fixture);
      const answer = await deliver(created, payload, { id: deliveryId(), forged: true });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ statusCode: 401, name: 'invalid_signature' });
      expect(await jobsOf(app, created.account.accountId)).toEqual([]);
    });

    it('when the provider retries a delivery it already made, then it stays one event per recipient', async () => {
      const created = await newFeed();
      const { fixture: name, emails } = feedCase.permanent;
      const payload = fixture(feedCase.provider, name);
      const id = deliveryId();
      expect((await deliver(created, payload, { id })).status).toBe(200);
      await recorded(app, created.account.accountId, emails.length);
      expect((await deliver(created, payload, { id })).status).toBe(200);
      await drained(app, created.account.accountId);
      const events = await accountEvents(app.database.db, created.account.accountId);
      expect(events.map((event) => event.email).sort()).toEqual([...emails].sort());
    });

    it('when Redis is down, then it answers 503 so the provider retries, and the retry lands', async () => {
      const created = await newFeed();
      const { fixture: name, emails } = feedCase.permanent;
      const payload = fixture(feedCase.provider, name);
      const id = deliveryId();
      const refused = await deliver(created, payload, { id }, down);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ statusCode: 503, name: 'service_unavailable' });
      expect((await deliver(created, payload, { id })).status).toBe(200);
      for (const email of emails) await suppression(created, email);
    });
  });
  return { live: () => live };
}
