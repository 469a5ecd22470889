import { describe, expect, it } from 'vitest';
import { combineLoads, quantile, type LoadResult } from '../../bench/api/http-load.js';
import { combinePhases, type Phase } from '../../bench/ingest/ingest-measure.js';

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
    const fast = load(
      1,
      Array.from({ length: 98 }, () => 1),
    );
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

describe('combinePhases', () => {
  const phase = (jobs: number, elapsedMs: number, cpuUsPerJob: number, loopBusy: number): Phase => ({
    enqueueMs: 100,
    run: {
      elapsedMs,
      completed: jobs,
      jobsPerSecond: (jobs * 1000) / elapsedMs,
      retriedAttempts: 1,
      processCpuUsPerJob: cpuUsPerJob,
      eventLoopBusy: loopBusy,
    },
  });

  it('when ingest rounds are combined, then jobs and times are summed and the rest weighted', () => {
    const combined = combinePhases([phase(1000, 1000, 100, 0.5), phase(3000, 1000, 200, 1)]);
    expect(combined.enqueueMs).toBe(200);
    expect(combined.run.completed).toBe(4000);
    expect(combined.run.elapsedMs).toBe(2000);
    expect(combined.run.jobsPerSecond).toBe(2000);
    expect(combined.run.retriedAttempts).toBe(2);
    expect(combined.run.processCpuUsPerJob).toBe(175);
    expect(combined.run.eventLoopBusy).toBe(0.75);
  });
});
