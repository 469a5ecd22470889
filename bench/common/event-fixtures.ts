import { randomUUID } from 'node:crypto';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { normalizeEmail } from '../../src/domain/email.js';
import { decideEvent, type BounceClassifier } from '../../src/events/event-decision.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';

/** Shares of each kind of event; they should add up to 1. */
export interface EventMix {
  permanentBounce: number;
  /** Refusals because of the sender (block lists, reputation), labelled permanent as providers label them. */
  blockedBounce: number;
  complaint: number;
  transientBounce: number;
}

/** What upstream mail systems send most: hard bounces, then complaints, then soft bounces and refusals of the sender. */
export const DEFAULT_MIX: EventMix = { permanentBounce: 0.6, blockedBounce: 0.1, complaint: 0.2, transientBounce: 0.1 };

// Refusals of the sender as the large mailbox providers word them: long, with URLs and addresses.
const SENDER_REFUSALS = [
  (ip: string) =>
    `smtp; 554 5.7.1 Service unavailable; Client host [${ip}] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/${ip}`,
  (ip: string) =>
    `smtp; 550-5.7.1 [${ip}] Our system has detected that this message is likely suspicious due to the very low reputation of the sending domain. To best protect our users from spam, the message has been blocked. For more information, go to https://support.google.com/mail/answer/188131 a1-20020a5d4b81000000b0033b2c6f8si123456wrb.42 - gsmtp`,
  (ip: string) =>
    `smtp; 550 5.7.1 Unfortunately, messages from [${ip}] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors. [AM4PEPF00027A5F.eurprd04.prod.outlook.com 2026-11-24T10:11:12.345Z 08DC0A1B2C3D4E5F]`,
  (ip: string) =>
    `smtp; 421 4.7.0 [TSS04] Messages from ${ip} temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes`,
];

export interface EventFixtureOptions {
  mix?: EventMix;
  /** Share of events about an address the same account already had an event for (a complaint after a bounce, say). */
  repeatShare?: number;
  /** Seeds the choices (kind, account, repeats), so runs with the same settings write the same workload. */
  seed?: number;
}

/** What a correct worker must leave in the database after processing the events once. */
export interface ExpectedOutcome {
  events: number;
  /** Events that suppress at once (complaints, and bounces whose category suppresses). */
  suppressing: number;
  /**
   * The suppressions rows: distinct (account, normalised email) pairs among suppressing events, and,
   * under a soft-bounce threshold, the other pairs with that many transient bounces (the fixtures'
   * events all occur within seconds, so within any window).
   */
  suppressions: number;
}

// mulberry32: a tiny seeded PRNG; Math.random cannot be seeded.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'example.org', 'mail.example-corp.co.uk'];

function eventBody(kind: keyof EventMix, email: string): Pick<SuppressionEventInput, 'type' | 'bounce' | 'complaint'> {
  switch (kind) {
    case 'permanentBounce':
      return {
        type: 'bounce',
        bounce: {
          type: 'permanent',
          sub_type: 'general',
          status: '5.1.1',
          diagnostic: `smtp; 550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table`,
        },
      };
    case 'blockedBounce':
      return {
        type: 'bounce',
        bounce: {
          type: 'permanent',
          sub_type: 'general',
          diagnostic: (SENDER_REFUSALS[email.length % SENDER_REFUSALS.length] as (ip: string) => string)(
            `203.0.113.${email.length % 250}`,
          ),
        },
      };
    case 'transientBounce':
      return {
        type: 'bounce',
        bounce: {
          type: 'transient',
          sub_type: 'mailbox_full',
          status: '4.2.2',
          diagnostic: 'smtp; 452 4.2.2 Mailbox full, try again later',
        },
      };
    case 'complaint':
      return { type: 'complaint', complaint: { feedback_type: 'abuse' } };
  }
}

/**
 * `count` valid events spread evenly over `accountIds`, shaped like what the upstream mail system
 * publishes (event-sized payloads, some addresses in mixed case). Event ids are unique; addresses
 * are distinct except for the `repeatShare` that revisit an address of the same account.
 */
export function generateEvents(
  accountIds: readonly string[],
  count: number,
  options: EventFixtureOptions = {},
): SuppressionEventInput[] {
  if (accountIds.length === 0) throw new Error('generateEvents needs at least one account');
  const mix = options.mix ?? DEFAULT_MIX;
  const repeatShare = options.repeatShare ?? 0.05;
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const seen = new Map<string, string[]>();
  const occurredAt = Date.now() - count;

  return Array.from({ length: count }, (_, index) => {
    const accountId = pick(accountIds);
    const earlier = seen.get(accountId) ?? [];
    let email: string;
    if (earlier.length > 0 && random() < repeatShare) {
      email = pick(earlier);
    } else {
      const local = `${random() < 0.1 ? 'User' : 'user'}.${index.toString(36)}`;
      email = `${local}@${pick(DOMAINS)}`;
      earlier.push(email);
      seen.set(accountId, earlier);
    }
    const roll = random();
    const kind: keyof EventMix =
      roll < mix.permanentBounce
        ? 'permanentBounce'
        : roll < mix.permanentBounce + mix.blockedBounce
          ? 'blockedBounce'
          : roll < mix.permanentBounce + mix.blockedBounce + mix.complaint
            ? 'complaint'
            : 'transientBounce';
    return {
      account_id: accountId,
      event_id: `evt-${index.toString(36).padStart(6, '0')}-${randomUUID()}`,
      email,
      source_id: randomUUID(),
      occurred_at: new Date(occurredAt + index).toISOString(),
      ...eventBody(kind, email),
    };
  });
}

/**
 * The rows a correct worker leaves after processing `events` (each once, distinct event ids), with
 * the accounts' soft-bounce threshold when they have one, under the default bounce actions and the
 * classifier the worker runs.
 */
export function expectedOutcome(
  events: readonly SuppressionEventInput[],
  softBounceThreshold: number | null = null,
  classify?: BounceClassifier,
): ExpectedOutcome {
  const pairs = new Set<string>();
  const softBounces = new Map<string, number>();
  let suppressing = 0;
  for (const event of events) {
    const pair = `${event.account_id.toLowerCase()}\n${normalizeEmail(event.email)}`;
    const decision = decideEvent(parseSuppressionEvent(event), DEFAULT_BOUNCE_ACTIONS, classify);
    if (decision.origin !== null) {
      suppressing += 1;
      pairs.add(pair);
    } else if (decision.action === 'count') {
      softBounces.set(pair, (softBounces.get(pair) ?? 0) + 1);
    }
  }
  const crossed =
    softBounceThreshold === null
      ? 0
      : [...softBounces].filter(([pair, count]) => count >= softBounceThreshold && !pairs.has(pair)).length;
  return { events: events.length, suppressing, suppressions: pairs.size + crossed };
}
