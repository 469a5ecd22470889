import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { BOUNCE_CATEGORIES, DEFAULT_BOUNCE_ACTIONS, type BounceCategory } from '../../src/domain/bounce-categories.js';
import { classifyBounce, type BounceEvidence } from '../../src/bounces/bounce-classifier.js';
import { DEFAULT_SETTINGS } from '../../src/policy/settings.js';
import { crossingIndex, SOFT_BOUNCE_ACTION } from '../../src/policy/soft-bounce-rule.js';
import { labelRule } from '../common/label-rule.js';
import type { FeedMapper } from '../../src/feeds/feed-mapping.js';
import type { Provider } from '../../src/feeds/providers/index.js';
import { mapMailgun } from '../../src/feeds/providers/mailgun/mapping.js';
import { mapPostmark } from '../../src/feeds/providers/postmark/mapping.js';
import { mapResend } from '../../src/feeds/providers/resend/mapping.js';
import { mapSendGrid } from '../../src/feeds/providers/sendgrid/mapping.js';
import { mapSes } from '../../src/feeds/providers/ses/mapping.js';
import { sourceSplit, type CorpusSplit } from './corpus-split.js';

const FIXTURES = new URL('../../test/fixtures/bounces/', import.meta.url);

/** One labelled bounce of test/fixtures/bounces/corpus.csv (its README has the columns). */
export interface CorpusRow {
  id: string;
  source: string;
  mta: string;
  status: string;
  reply_code: string;
  diagnostic: string;
  sisimai_reason: string;
  category: BounceCategory;
  note: string;
}

export function readCorpus(): CorpusRow[] {
  const rows = parse<CorpusRow>(readFileSync(new URL('corpus.csv', FIXTURES), 'utf8'), { columns: true });
  for (const row of rows) {
    if (!(BOUNCE_CATEGORIES as readonly string[]).includes(row.category)) {
      throw new Error(`corpus row ${row.id}: "${row.category}" is not a category`);
    }
  }
  return rows;
}

/**
 * What the row's provider would label it, as every provider's label mostly is: permanent for a
 * 5xx (by the enhanced status, else the reply code, else the first code in the text), else transient.
 */
export function providerLabel(row: Pick<CorpusRow, 'status' | 'reply_code' | 'diagnostic'>): 'permanent' | 'transient' {
  const code = row.status || row.reply_code || /\b([245])(?:\d\d\b|\.\d{1,3}\.\d{1,3})/.exec(row.diagnostic)?.[1] || '';
  return code.startsWith('5') ? 'permanent' : 'transient';
}

export function evidenceOf(row: CorpusRow): BounceEvidence {
  return {
    status: row.status || undefined,
    reply_code: row.reply_code || undefined,
    diagnostic: row.diagnostic || undefined,
    remote_mta: row.mta || undefined,
    type: providerLabel(row),
  };
}

/** The same evidence without the provider's label, as a mail system that reports none sends it. */
export const withoutLabel = (evidence: BounceEvidence): BounceEvidence => ({ ...evidence, type: undefined });

/**
 * A decision under the default policy: does the bounce suppress at once, and does it count toward
 * the soft-bounce threshold?
 */
export type Decider = (evidence: BounceEvidence) => {
  category: BounceCategory | null;
  suppress: boolean;
  counts: boolean;
};

export const classifierDecider: Decider = (evidence) => {
  const { category } = classifyBounce(evidence);
  const action = DEFAULT_BOUNCE_ACTIONS[category];
  return { category, suppress: action === 'suppress', counts: action === SOFT_BOUNCE_ACTION };
};

/**
 * The rule this service had before the classifier, under the defaults of then: the provider's label
 * alone decides, names no category, and nothing counts toward a threshold (there was none).
 */
export const labelDecider: Decider = (evidence) => ({
  category: null,
  suppress: DEFAULT_BOUNCE_ACTIONS[labelRule(evidence).category] === 'suppress',
  counts: false,
});

const DAY_MS = 24 * 60 * 60 * 1000;
/** A dead address mailed weekly bounces the same way each time: its first three bounces, a week apart. */
const THREE_WEEKLY_BOUNCES = [0, 7 * DAY_MS, 14 * DAY_MS];

/**
 * Whether the default threshold (DEFAULT_SETTINGS, by the service's own rule) suppresses an address
 * by the third of three counted bounces a week apart.
 */
export const thresholdCrossesByThird: boolean =
  DEFAULT_SETTINGS.soft_bounce_threshold !== null &&
  crossingIndex([], THREE_WEEKLY_BOUNCES, {
    threshold: DEFAULT_SETTINGS.soft_bounce_threshold,
    windowDays: DEFAULT_SETTINGS.soft_bounce_window_days,
  }) !== null;

/** Whether an address whose bounces are all decided so is suppressed by its third, mailed weekly. */
export const suppressedByThird = (decision: ReturnType<Decider>): boolean =>
  decision.suppress || (decision.counts && thresholdCrossesByThird);

/** Categories of bounces that say nothing against the address: it works, and must stay mailable. */
const WORKING: readonly BounceCategory[] = ['sender_blocked', 'delivery_failure', 'auto_reply'];

export interface Scores {
  rows: number;
  dead: number;
  notDead: number;
  senderSide: number;
  /** Rows that are not dead addresses, decided `suppress`. */
  wrongfulSuppressions: number;
  /** Dead addresses not decided `suppress`. */
  misses: number;
  /** Dead addresses suppressed by their third bounce, mailed weekly: at once, or by the threshold. */
  deadByThird: number;
  /** Rows of a working address (refused because of the sender, the road, an automatic reply). */
  working: number;
  /** Working addresses suppressed by their third bounce, mailed weekly. */
  workingByThird: number;
  /** Sender-side rows decided `sender_blocked`. */
  senderBlocked: number;
  /** expected category → decided category → rows. */
  confusion: Record<string, Record<string, number>>;
}

export function score(
  items: readonly { expected: BounceCategory; evidence: BounceEvidence }[],
  decide: Decider,
): Scores {
  const scores: Scores = {
    rows: items.length,
    dead: 0,
    notDead: 0,
    senderSide: 0,
    wrongfulSuppressions: 0,
    misses: 0,
    deadByThird: 0,
    working: 0,
    workingByThird: 0,
    senderBlocked: 0,
    confusion: {},
  };
  for (const { expected, evidence } of items) {
    const decision = decide(evidence);
    const dead = expected === 'invalid_address';
    if (dead) scores.dead += 1;
    else scores.notDead += 1;
    if (dead && !decision.suppress) scores.misses += 1;
    if (!dead && decision.suppress) scores.wrongfulSuppressions += 1;
    if (dead && suppressedByThird(decision)) scores.deadByThird += 1;
    if (WORKING.includes(expected)) {
      scores.working += 1;
      if (suppressedByThird(decision)) scores.workingByThird += 1;
    }
    if (expected === 'sender_blocked') {
      scores.senderSide += 1;
      if (decision.category === 'sender_blocked') scores.senderBlocked += 1;
    }
    const row = (scores.confusion[expected] ??= {});
    const decided = decision.category ?? (decision.suppress ? 'suppress' : 'not suppressed');
    row[decided] = (row[decided] ?? 0) + 1;
  }
  return scores;
}

export const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

export interface CorpusItem {
  id: string;
  /** The part it belongs to, by its source (corpus-split.ts). */
  split: CorpusSplit;
  expected: BounceCategory;
  evidence: BounceEvidence;
}

/** Each row as the accuracy is scored: its expected category, its evidence and its part. */
export function corpusItems(rows: readonly CorpusRow[]): CorpusItem[] {
  return rows.map((row) => ({
    id: row.id,
    split: sourceSplit(row.mta),
    expected: row.category,
    evidence: evidenceOf(row),
  }));
}

/** The providers whose payloads the corpus is wrapped in (providers/<name>.json). */
type CorpusProvider = Exclude<Provider, 'kumomta' | 'postal'>;

const MAPPERS: Record<CorpusProvider, FeedMapper> = {
  ses: mapSes,
  sendgrid: mapSendGrid,
  postmark: mapPostmark,
  mailgun: mapMailgun,
  resend: mapResend,
};

/** A provider's payload as the body its feed receives (SendGrid posts batches). */
function bodyOf(provider: Provider, payload: unknown): string {
  return JSON.stringify(provider === 'sendgrid' ? [payload] : payload);
}

export interface ProviderItem {
  provider: Provider;
  corpusId: string;
  expected: BounceCategory;
  evidence: BounceEvidence;
}

/**
 * The corpus rows wrapped in each provider's payload (test/fixtures/bounces/providers/), read by
 * the provider's own mapping, as a feed would: the evidence is what the event carries.
 */
export function providerItems(rows: readonly CorpusRow[]): ProviderItem[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items: ProviderItem[] = [];
  for (const provider of Object.keys(MAPPERS) as CorpusProvider[]) {
    const fixtures = JSON.parse(readFileSync(new URL(`providers/${provider}.json`, FIXTURES), 'utf8')) as {
      corpus_id: string;
      payload: unknown;
    }[];
    fixtures.forEach(({ corpus_id, payload }, index) => {
      const row = byId.get(corpus_id);
      if (!row) throw new Error(`providers/${provider}.json: no corpus row ${corpus_id}`);
      const { events } = MAPPERS[provider](
        bodyOf(provider, payload),
        { id: `delivery-${index}` },
        {
          accountId: '0190f3a4-7c2e-7b1d-9a8e-3f6b5c4d2e10',
          emailIdTag: 'email_id',
          scopeFrom: null,
        },
      );
      for (const event of events) {
        if (event.type !== 'bounce' || !event.bounce) continue;
        items.push({
          provider,
          corpusId: corpus_id,
          expected: row.category,
          evidence: { ...event.bounce, reply_code: event.bounce.reply_code },
        });
      }
    });
  }
  return items;
}
