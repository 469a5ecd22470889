import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText, storableText } from '../../src/domain/text.js';

describe('text PostgreSQL can store', () => {
  it.each([
    ['plain text', 'user unknown', true],
    ['a surrogate pair (an emoji)', 'bounced \ud83d\udce8', true],
    ['NUL', 'a\u0000b', false],
    ['a high surrogate alone', 'a\ud800b', false],
    ['a low surrogate alone', '\udc00', false],
    ['two high surrogates', '\ud800\ud800\udc00', false],
  ])('when the text is %s, then isStorableText says %s', (_, text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });

  it('when text holds NUL and unpaired surrogates, then storableText removes the NULs and replaces each surrogate with U+FFFD, keeping pairs', () => {
    expect(storableText('550\u0000 5.1.1 \ud800x \ud83d\udce8 \udc00')).toBe('550 5.1.1 \ufffdx \ud83d\udce8 \ufffd');
  });

  it('when a parsed body holds unstorable text in a value or a key, then findUnstorableText names where, and null when there is none', () => {
    expect(findUnstorableText({ emails: ['a@example.com', 'b\u0000@example.com'] })).toBe('emails[1]');
    expect(findUnstorableText({ webhook: { note: '\ud800' } })).toBe('webhook.note');
    expect(findUnstorableText({ filters: { ['x\u0000']: 1 } })).toBe('a key of filters');
    expect(findUnstorableText({ ['\udc00']: 1 })).toBe('a key of the body');
    expect(findUnstorableText({ emails: ['a@example.com'], force: true, limit: 3, nested: [[null]] })).toBeNull();
  });

  it('when a body is nested 100,000 levels deep, then it is walked without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(findUnstorableText(deep)).toBe(`${'[0]'.repeat(100_000)}`);
  });
});
