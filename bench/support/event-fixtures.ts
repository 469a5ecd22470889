import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../src/domain/email.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';

/** Shares of each kind of event; they should add up to 1. */
export interface EventMix {
  permanentBounce: number;
  complaint: number;
  transientBounce: number;
}

/** What upstream mail systems send most: hard bounces, then complaints, then soft bounces. */
export const DEFAULT_MIX: EventMix = { permanentBounce: 0.7, complaint: 0.2, transientBounce: 0.1 };

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
  /** Events that suppress (complaints and permanent bounces). */
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
        : roll < mix.permanentBounce + mix.complaint
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
 * the accounts' soft-bounce threshold when they have one.
 */
export function expectedOutcome(
  events: readonly SuppressionEventInput[],
  softBounceThreshold: number | null = null,
): ExpectedOutcome {
  const pairs = new Set<string>();
  const softBounces = new Map<string, number>();
  let suppressing = 0;
  for (const event of events) {
    const pair = `${event.account_id.toLowerCase()}\n${normalizeEmail(event.email)}`;
    if (event.type === 'complaint' || event.bounce?.type === 'permanent') {
      suppressing += 1;
      pairs.add(pair);
    } else {
      softBounces.set(pair, (softBounces.get(pair) ?? 0) + 1);
    }
  }
  const crossed =
    softBounceThreshold === null
      ? 0
      : [...softBounces].filter(([pair, count]) => count >= softBounceThreshold && !pairs.has(pair)).length;
  return { events: events.length, suppressing, suppressions: pairs.size + crossed };
}
