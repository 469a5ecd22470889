import { describe, expect, it } from 'vitest';
import {
  classifierDecider,
  corpusItems,
  labelDecider,
  providerItems,
  readCorpus,
  score,
  share,
  thresholdCrossesByThird,
  withoutLabel,
} from '../../bench/classify/corpus.js';
import { sourceSplit } from '../../bench/classify/corpus-split.js';

const rows = readCorpus();
const corpus = score(corpusItems(rows), classifierDecider);

describe('the classifier on the labelled corpus of real bounces', () => {
  it('when the corpus is read, then it holds about 600 labelled rows of every kind that matters', () => {
    expect(rows.length).toBeGreaterThanOrEqual(500);
    expect(corpus.dead).toBeGreaterThan(100);
    expect(corpus.senderSide).toBeGreaterThan(100);
  });

  it('when bounces that are not dead addresses are decided, then at most 1% are suppressed at once (the label rule: most of them)', () => {
    expect(share(corpus.wrongfulSuppressions, corpus.notDead)).toBeLessThanOrEqual(0.01);
    const label = score(corpusItems(rows), labelDecider);
    expect(share(label.wrongfulSuppressions, label.notDead)).toBeGreaterThan(0.5);
  });

  it('when the same bounces come without the provider’s label, then still at most 1% of those that are not dead addresses are suppressed at once', () => {
    const unlabelled = score(
      corpusItems(rows).map((item) => ({ ...item, evidence: withoutLabel(item.evidence) })),
      classifierDecider,
    );
    expect(unlabelled.notDead).toBe(corpus.notDead);
    expect(share(unlabelled.wrongfulSuppressions, unlabelled.notDead)).toBeLessThanOrEqual(0.01);
  });

  it('when dead addresses are decided, then at most 3% are missed at once', () => {
    expect(share(corpus.misses, corpus.dead)).toBeLessThanOrEqual(0.03);
  });

  it('when dead addresses bounce the same way each week under the default policy, then at least 98% are suppressed by their third bounce', () => {
    expect(thresholdCrossesByThird).toBe(true);
    expect(share(corpus.deadByThird, corpus.dead)).toBeGreaterThanOrEqual(0.98);
  });

  it('when sender-side bounces are decided, then at least 95% are sender_blocked', () => {
    expect(share(corpus.senderBlocked, corpus.senderSide)).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the part of the corpus held out by source while the rules were written', () => {
  const items = corpusItems(rows);
  const part = (split: 'development' | 'held_out') => items.filter((item) => item.split === split);
  const heldOut = score(part('held_out'), classifierDecider);
  const unlabelled = score(
    part('held_out').map((item) => ({ ...item, evidence: withoutLabel(item.evidence) })),
    classifierDecider,
  );

  it('when the corpus is split, then about a fifth is held out, from ten sources or more, with dead and sender-side rows in it', () => {
    expect(heldOut.rows / rows.length).toBeGreaterThan(0.15);
    expect(heldOut.rows / rows.length).toBeLessThan(0.3);
    const heldOutSources = new Set(rows.filter((row) => sourceSplit(row.mta) === 'held_out').map((row) => row.mta));
    expect(heldOutSources.size).toBeGreaterThanOrEqual(10);
    expect(heldOut.dead).toBeGreaterThan(25);
    expect(heldOut.senderSide).toBeGreaterThan(25);
  });

  it('when the held-out bounces are decided, with labels or without, then at most 2 % of those that are not dead addresses are suppressed at once', () => {
    expect(share(heldOut.wrongfulSuppressions, heldOut.notDead)).toBeLessThanOrEqual(0.02);
    expect(share(unlabelled.wrongfulSuppressions, unlabelled.notDead)).toBeLessThanOrEqual(0.02);
  });

  // Issue 39's bar is 90 % at once; the corpus's own is 97 %, which the held-out part holds within 2 points.
  it('when held-out dead addresses are decided, then at least 95 % are suppressed at once and all but 2 % by their third bounce', () => {
    expect(share(heldOut.dead - heldOut.misses, heldOut.dead)).toBeGreaterThanOrEqual(0.95);
    expect(share(heldOut.deadByThird, heldOut.dead)).toBeGreaterThanOrEqual(0.98);
  });

  it('when held-out sender-side bounces are decided, then at least 95 % are sender_blocked', () => {
    expect(share(heldOut.senderBlocked, heldOut.senderSide)).toBeGreaterThanOrEqual(0.95);
  });
});

describe('per provider, the same texts in each provider’s payload, read by its own mapping', () => {
  const items = providerItems(rows);
  const providers = [...new Set(items.map((item) => item.provider))];

  it('when the fixtures are read, then every provider has some', () => {
    expect(providers.sort()).toEqual(['mailgun', 'postmark', 'resend', 'sendgrid', 'ses']);
  });

  it.each(['ses', 'sendgrid', 'postmark', 'mailgun', 'resend'])(
    'when %s’s bounces are decided, then fewer good addresses are suppressed than by its own label, and no more dead ones are missed',
    (provider) => {
      const mine = items.filter((item) => item.provider === provider);
      const ours = score(mine, classifierDecider);
      const theirs = score(mine, labelDecider);
      expect(ours.wrongfulSuppressions).toBeLessThan(theirs.wrongfulSuppressions);
      expect(ours.misses).toBeLessThanOrEqual(theirs.misses);
    },
  );
});
