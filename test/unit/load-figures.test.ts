import { describe, expect, it } from 'vitest';
import { combineLoads, quantile, type LoadResult } from '../../bench/support/http-load.js';

function load(seconds: number, latenciesMs: number[], non2xx = 0): LoadResult {
  return {
    rps: latenciesMs.length / seconds,
    okPerSecond: (latenciesMs.length - non2xx) / seconds,
    p50Ms: 0,
    p99Ms: 0,
    requests: latenciesMs.length,
    non2xx,
    errors: 0,
    seconds,
    latenciesMs,
  };
}

describe('quantile', () => {
  it('when asked for a quantile, then it answers the nearest-rank value', () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(quantile(sorted, 0.5)).toBe(50);
    expect(quantile(sorted, 0.99)).toBe(99);
    expect(quantile(sorted, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
  });

  it('when there are no values, then it answers 0', () => {
    expect(quantile([], 0.5)).toBe(0);
  });
});

describe('combineLoads', () => {
  it('when rounds are combined, then rates are over the summed time and percentiles over every response', () => {
    const fast = load(1, Array.from({ length: 98 }, () => 1));
    const slow = load(1, [50, 60], 2);
    const combined = combineLoads([fast, slow]);
    expect(combined.requests).toBe(100);
    expect(combined.seconds).toBe(2);
    expect(combined.rps).toBe(50);
    expect(combined.okPerSecond).toBe(49);
    expect(combined.non2xx).toBe(2);
    expect(combined.p50Ms).toBe(1);
    expect(combined.p99Ms).toBe(50);
    expect(combined.latenciesMs).toHaveLength(100);
  });
});
