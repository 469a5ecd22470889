import type { Page } from 'playwright-core';
import { issueApiKey } from '../../src/accounts/api-key-repository.js';
import { createMonthPartitions } from '../../src/db/month-partitions.js';
import type { Database } from '../../src/db/database.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { parseSuppressionEvent, type BounceType, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { bounceEvent } from '../support/test-events.js';

export interface ConsoleAccount {
  accountId: string;
  keyId: string;
  token: string;
}

/** An account of the given name with one full_access key. */
export async function accountNamed(db: Database, name: string): Promise<ConsoleAccount> {
  const key = await issueApiKey(db, { accountName: name, permission: 'full_access', name: 'console' });
  return { accountId: key.accountId, keyId: key.keyId, token: key.token };
}

/** Adds entries one by one, in this order: the last is the newest, and so first in the list. */
export async function addEntries(
  db: Database,
  accountId: string,
  emails: readonly string[],
  origin: Origin = 'manual',
) {
  for (const email of emails) {
    await addSuppressions(db, accountId, [{ id: newId(), email, origin, sourceId: null }]);
  }
}

/** Records events as the event worker does: a permanent bounce puts its address on the list. */
export async function recordEvents(db: Database, ...events: SuppressionEventInput[]): Promise<void> {
  await recordEventBatch(db, events.map(parseSuppressionEvent));
}

/** A permanent bounce with its own SMTP status and diagnostic, at a fixed time. */
export function bounceWith(
  accountId: string,
  email: string,
  bounce: {
    status: string;
    diagnostic: string;
    occurredAt: string;
    type?: BounceType;
    sourceId?: string;
    provider?: string;
    remoteMta?: string;
  },
): SuppressionEventInput {
  const event = bounceEvent(accountId, email, bounce.type ?? 'permanent');
  return {
    ...event,
    source_id: bounce.sourceId ?? event.source_id,
    occurred_at: bounce.occurredAt,
    bounce: {
      type: bounce.type ?? 'permanent',
      sub_type: 'general',
      status: bounce.status,
      diagnostic: bounce.diagnostic,
      ...(bounce.provider === undefined ? {} : { provider: bounce.provider }),
      ...(bounce.remoteMta === undefined ? {} : { remote_mta: bounce.remoteMta }),
    },
  };
}

export interface BounceAgo {
  email: string;
  status: string;
  diagnostic: string;
  type?: BounceType;
  /** Received this many days (fractions too) before now. */
  daysAgo: number;
}

/**
 * Bounces recorded as the event worker records them (each classified by the service's rules),
 * then moved back in time: the bounce summary counts records by when they were received.
 */
export async function recordBouncesAgo(db: Database, accountId: string, bounces: readonly BounceAgo[]): Promise<void> {
  const now = Date.now();
  const events = bounces.map((bounce) => {
    const at = new Date(now - bounce.daysAgo * 24 * 3600_000).toISOString();
    return { at, event: bounceWith(accountId, bounce.email, { ...bounce, occurredAt: at }) };
  });
  await recordEvents(db, ...events.map(({ event }) => event));
  for (const { at, event } of events) {
    await createMonthPartitions(db, ['suppression_events'], new Date(at));
    await db.query({
      text: 'UPDATE suppression_events SET received_at = $3 WHERE account_id = $1 AND event_id = $2',
      values: [accountId, event.event_id, at],
    });
  }
}

/** Makes an address's bounces look as if they were recorded before bounces were classified. */
export async function forgetClassification(db: Database, accountId: string, email: string): Promise<void> {
  await db.query({
    text: `UPDATE suppression_events SET bounce_category = NULL, bounce_reason = NULL, bounce_rule = NULL,
             classifier_version = NULL
           WHERE account_id = $1 AND email = $2 AND type = 'bounce'`,
    values: [accountId, email],
  });
}

/**
 * Gives the account's entries fixed creation times, a minute apart from `newest` back, in list
 * order, so that the screenshots show the same page on every run.
 */
export async function pinCreationTimes(db: Database, accountId: string, newest: string): Promise<void> {
  await db.query({
    text: `UPDATE suppressions s SET created_at = $2::timestamptz - (ordered.position - 1) * interval '1 minute'
           FROM (SELECT id, row_number() OVER (ORDER BY id DESC) AS position FROM suppressions WHERE account_id = $1) ordered
           WHERE s.account_id = $1 AND s.id = ordered.id`,
    values: [accountId, newest],
  });
}

/** Signs in to the console of the app at `baseUrl` with the key, and waits until the list is shown. */
export async function signInToConsole(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Suppressed addresses' }).waitFor();
  await page.locator('.list[aria-busy="false"]').waitFor();
}
