import { beforeAll, describe, expect, it } from 'vitest';
import { readMailCorpus } from '../../bench/mail/corpus-rows.js';
import { scoreCorpus, share, type CorpusScore } from '../../bench/mail/score.js';

/**
 * The parser against Sisimai's expectations on its public corpus (test/fixtures/mail/corpus.json,
 * built by bench/mail/build-corpus.ts); `npm run bench:mail` prints the same figures in full. Each
 * floor is the target, or where the parser does not reach it, the figure measured on the whole
 * corpus (docs/mail.md says which).
 */
const rows = readMailCorpus();
let score: CorpusScore;

beforeAll(async () => {
  score = await scoreCorpus(rows);
});

describe('the mail parser on the Sisimai corpus', () => {
  it('when the corpus is read, then it holds over 600 scored messages, a fifth of them held out', () => {
    const scored = rows.filter((row) => row.records.length > 0);
    expect(scored.length).toBeGreaterThan(600);
    const heldOut = scored.filter((row) => row.split === 'held_out').length / scored.length;
    expect(heldOut).toBeGreaterThan(0.15);
    expect(heldOut).toBeLessThan(0.25);
  });

  it('when each message is parsed, then at least 99 % give as many records as Sisimai', () => {
    expect(share(score.overall['record count'])).toBeGreaterThanOrEqual(0.99);
  });

  it('when records are compared, then at least 99 % have the expected kind', () => {
    expect(share(score.overall.kind)).toBeGreaterThanOrEqual(0.99);
  });

  it('when failures are compared, then the status and the reply code agree with Sisimai in at least 97 % of records', () => {
    expect(share(score.overall.status)).toBeGreaterThanOrEqual(0.97);
    expect(share(score.overall['reply code'])).toBeGreaterThanOrEqual(0.97);
  });

  it('when recipients are compared, then at least 99 % of messages name exactly the expected ones', () => {
    expect(share(score.overall['recipients exact'])).toBeGreaterThanOrEqual(0.99);
  });

  it('when the classifier decides each parsed failure, then at least 95 % agree with the category of Sisimai’s reason', () => {
    expect(share(score.overall.category)).toBeGreaterThanOrEqual(0.95);
  });
});
