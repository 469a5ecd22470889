import { describe, expect, it } from 'vitest';
import { parseCheckAnswer } from '../../src/client/check-result.js';

const entry = {
  object: 'suppression',
  id: '019cebab-8d7d-76a0-8f24-546e4de3bc59',
  email: 'gone@example.com',
  origin: 'bounce',
  source_id: null,
  scope: null,
  created_at: '2025-01-01T00:00:00.000Z',
};
const sent = ['Gone@Example.com', 'nope', 'ok@example.com', 'gone@example.com'];
const answer = {
  object: 'suppression_check',
  checked: 2,
  suppressed: [entry],
  invalid: [{ index: 1, email: 'nope', reason: 'is not a valid email address' }],
};

function problemOf(body: unknown, emails: readonly string[] = sent): string {
  const parsed = parseCheckAnswer(body, emails);
  if (!('problem' in parsed)) throw new Error('the answer was accepted');
  return parsed.problem;
}

describe('parseCheckAnswer', () => {
  it('when the answer is the check of the addresses sent, then it is the result', () => {
    expect(parseCheckAnswer(answer, sent)).toEqual({ result: answer });
  });

  it('when the answer has fields this client does not know, then they are dropped and the rest is the result', () => {
    expect(parseCheckAnswer({ ...answer, took_ms: 3 }, sent)).toEqual({ result: answer });
  });

  it.each([
    ['not an object', 'OK'],
    ['another object', { ...answer, object: 'list' }],
    ['no suppressed list', { ...answer, suppressed: undefined }],
    ['a fractional count', { ...answer, checked: 1.5 }],
    ['an entry of an unknown origin', { ...answer, suppressed: [{ ...entry, origin: 'spam' }] }],
  ])('when the body is %s, then it is refused as not a check result', (_what, body) => {
    expect(problemOf(body)).toMatch(/^not a check result/);
  });

  it('when the answer counts other addresses than were sent, then it is refused', () => {
    expect(problemOf({ ...answer, checked: 3 })).toMatch(/3 addresses checked, but 2 distinct valid addresses/);
  });

  it('when an address is listed as suppressed that was not sent, then it is refused', () => {
    const other = { ...entry, email: 'other@example.com' };
    expect(problemOf({ ...answer, suppressed: [other] })).toMatch(/other@example.com is not one that was sent/);
  });

  it('when an address is listed as suppressed twice, then it is refused', () => {
    expect(problemOf({ ...answer, suppressed: [entry, entry] })).toMatch(/listed twice/);
  });

  it('when an invalid entry points at another address or past the end, then it is refused', () => {
    const at = (index: number) => ({ ...answer, invalid: [{ index, email: 'nope', reason: 'is bad' }] });
    expect(problemOf(at(2))).toMatch(/invalid\[2\] is not the address sent/);
    expect(problemOf(at(9))).toMatch(/invalid\[9\] is not the address sent/);
  });

  it('when an index is listed as invalid twice, then it is refused', () => {
    const twice = { ...answer, invalid: [answer.invalid[0], answer.invalid[0]] };
    expect(problemOf(twice)).toMatch(/listed as invalid twice/);
  });
});
