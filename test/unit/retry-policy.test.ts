import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, retryAfterMs } from '../../src/client/retry-policy.js';

describe('backoffDelayMs', () => {
  it.each([
    [1, 50, 100],
    [2, 100, 200],
    [3, 200, 400],
    [5, 800, 1600],
    [6, 1000, 2000],
    [1000, 1000, 2000],
  ])('when %i attempts in a row have failed, then the wait is from %i to %i ms', (failures, least, most) => {
    expect(backoffDelayMs(failures, () => 0)).toBe(least);
    expect(backoffDelayMs(failures, () => 0.999999)).toBeCloseTo(most, 0);
  });

  it('when the random draw varies, then so does the wait, within its step', () => {
    const waits = [0.1, 0.5, 0.9].map((draw) => backoffDelayMs(3, () => draw));
    expect(waits).toEqual([220, 300, 380]);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it.each([
    ['1', 1000],
    [' 3 ', 3000],
    ['0', 0],
    ['Sun, 01 Jun 2025 12:00:05 GMT', 5000],
    ['Sun, 01 Jun 2025 11:59:00 GMT', 0],
  ])('when retry-after is %j, then the wait is %i ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });

  it.each([[null], ['soon'], ['-1'], ['1.5']])(
    'when retry-after is %j, then it asks for no particular wait',
    (header) => {
      expect(retryAfterMs(header, now)).toBeUndefined();
    },
  );
});

describe('isRetryableStatus', () => {
  it('when the service is down, overloaded or rate limiting, then the request is tried again', () => {
    expect([500, 502, 503, 504, 429, 408].map(isRetryableStatus)).toEqual([true, true, true, true, true, true]);
  });

  it('when the service refused the request itself, then it is not', () => {
    expect([400, 401, 403, 404, 405, 409, 413, 422].map(isRetryableStatus)).toEqual(Array(8).fill(false));
  });
});
