import { describe, expect, it } from 'vitest';
import {
  classifierDecider,
  corpusItems,
  labelDecider,
  providerItems,
  readCorpus,
  score,
  share,
} from '../../bench/classify/corpus.js';

const rows = readCorpus();
const corpus = score(corpusItems(rows), classifierDecider);

describe('the classifier on the labelled corpus of real bounces', () => {
  it('when the corpus is read, then it holds about 600 labelled rows of every kind that matters', () => {
    expect(rows.length).toBeGreaterThanOrEqual(500);
    expect(corpus.dead).toBeGreaterThan(100);
    expect(corpus.senderSide).toBeGreaterThan(100);
  });

  it('when bounces that are not dead addresses are decided, then at most 1% are suppressed (the label rule: most of them)', () => {
    expect(share(corpus.wrongfulSuppressions, corpus.notDead)).toBeLessThanOrEqual(0.01);
    const label = score(corpusItems(rows), labelDecider);
    expect(share(label.wrongfulSuppressions, label.notDead)).toBeGreaterThan(0.5);
  });

  it('when dead addresses are decided, then at most 3% are missed', () => {
    expect(share(corpus.misses, corpus.dead)).toBeLessThanOrEqual(0.03);
  });

  it('when sender-side bounces are decided, then at least 95% are sender_blocked', () => {
    expect(share(corpus.senderBlocked, corpus.senderSide)).toBeGreaterThanOrEqual(0.95);
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
